package dev.crucible.application.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;
import org.junit.jupiter.api.Test;

/** tinker:// paths: three segments, a run id this server gave out, a known kind, a name. */
class TinkerPathTest {

    @Test
    void aPathReadsBackAsWritten() {
        String id = UUID.randomUUID().toString();
        TinkerPath path = TinkerPath.parse("tinker://" + id + "/sampler_weights/final").orElseThrow();
        assertEquals(id, path.run().toString());
        assertEquals("tinker://" + id + "/sampler_weights/final", path.toString());
        assertTrue(TinkerPath.parse("tinker://" + id + "/weights/").isEmpty());
        assertTrue(TinkerPath.parse("tinker://" + id + "/other/x").isEmpty());
        assertTrue(TinkerPath.parse("tinker://" + id + "/weights/a/b").isEmpty());
        assertTrue(TinkerPath.parse("s3://" + id + "/weights/a").isEmpty());
    }

    @Test
    void oddTextIsNoPathNeverAFailure() {
        for (String text : new String[] {"", "tinker://", "tinker:///weights/a", "tinker://x/weights/a",
                "tinker://" + UUID.randomUUID() + "x/weights/a", "tinker://\u0000/weights/a", null}) {
            assertTrue(TinkerPath.parse(text).isEmpty(), String.valueOf(text));
        }
    }
}
