package dev.crucible.domain.completion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.kernel.refusal.Outcome;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Metadata's bounds, as OpenAI sets them: each refusal names the field at fault. */
class CompletionMetadataTest {

    private static String refusedParam(Object raw) {
        return switch (CompletionMetadata.read("metadata", raw)) {
            case Outcome.Refused<CompletionMetadata> refused -> refused.refusal().param();
            case Outcome.Done<CompletionMetadata> done -> throw new AssertionError("accepted " + done.value());
        };
    }

    private static Map<String, Object> pairs(int n) {
        Map<String, Object> pairs = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            pairs.put("k" + i, "v");
        }
        return pairs;
    }

    @Test
    void acceptsSixteenPairsAtTheirBoundsInOrder() {
        Map<String, Object> raw = pairs(15);
        raw.put("k".repeat(64), "v".repeat(512));
        CompletionMetadata read = ((Outcome.Done<CompletionMetadata>) CompletionMetadata.read("metadata", raw)).value();
        assertEquals(16, read.pairs().size());
        assertEquals("k0", read.pairs().keySet().iterator().next());
        assertEquals(Map.of(), ((Outcome.Done<CompletionMetadata>) CompletionMetadata.read("metadata", null)).value()
                .pairs(), "null is no metadata");
    }

    @Test
    void refusesSeventeenPairsNamingMetadata() {
        assertEquals("metadata", refusedParam(pairs(17)));
    }

    @Test
    void refusesALongKeyALongValueANonStringAndNulNamingThePair() {
        assertEquals("metadata." + "k".repeat(64) + "…", refusedParam(Map.of("k".repeat(65), "v")));
        assertEquals("metadata.k", refusedParam(Map.of("k", "v".repeat(513))));
        assertEquals("metadata.k", refusedParam(Map.of("k", 1)));
        assertEquals("metadata.k", refusedParam(Map.of("k", List.of("v"))));
        assertEquals("metadata.k", refusedParam(Map.of("k", "a\0b")));
        assertEquals("metadata.a\uFFFDb", refusedParam(Map.of("a\0b", "v")));
        assertEquals("metadata.", refusedParam(Map.of("", "v")));
        Map<String, Object> nullValue = new LinkedHashMap<>();
        nullValue.put("k", null);
        assertEquals("metadata.k", refusedParam(nullValue));
    }

    @Test
    void refusesANonObject() {
        assertEquals("metadata", refusedParam("tag"));
        assertEquals("metadata", refusedParam(List.of()));
    }

    @Test
    void theRecordHoldsTheSameBounds() {
        assertThrows(IllegalArgumentException.class, () -> new CompletionMetadata(Map.of("k", "v".repeat(513))));
    }
}
