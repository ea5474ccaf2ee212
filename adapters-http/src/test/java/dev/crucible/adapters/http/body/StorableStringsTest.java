package dev.crucible.adapters.http.body;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.kernel.refusal.Refusal;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Generated strings against the reader of bodies bound for PostgreSQL: a string (value or key) holding U+0000 or a
 * lone surrogate is a 400 naming where it is; every other string is read back exactly; a chat body takes anything.
 */
class StorableStringsTest {

    private static final JsonLimits LIMITS = new JsonLimits(1 << 20, 0, 64, 100);
    private static final JsonValueReader STORED = new JsonValueReader(LIMITS, 1 << 20, "test.bytes", true);
    private static final JsonValueReader CHAT = new JsonValueReader(LIMITS, 1 << 20, "test.bytes", false);
    private static final JsonFactory JSON = JsonFactory.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    @Provide
    Arbitrary<String> anyText() {
        return Arbitraries.strings().all().ofMaxLength(40);
    }

    @Property(tries = 500)
    void aStringIsStoredExactlyUnlessPostgresCannotHoldIt(@ForAll("anyText") String text) throws IOException {
        String body = json(text, "value");
        boolean storable = StorableText.problem(text).isEmpty();
        if (storable) {
            assertEquals(Map.of("outer", List.of(Map.of("value", text))), STORED.read(stream(body)));
        } else {
            Refusal refusal = assertThrows(RefusalException.class, () -> STORED.read(stream(body))).refusal();
            assertEquals(Refusal.Reason.INVALID, refusal.reason());
            assertEquals("outer[0].value", refusal.param());
            assertTrue(refusal.message().startsWith("outer[0].value contains "), refusal.message());
        }
        assertEquals(Map.of("outer", List.of(Map.of("value", text))), CHAT.read(stream(body)), "chat reads any string");
    }

    @Property(tries = 300)
    void aNulAnywhereInAValueOrAKeyIsRefused(@ForAll("anyText") String text, @ForAll @IntRange(max = 40) int at,
            @ForAll boolean inKey) {
        int cut = Math.min(at, text.length());
        String withNul = text.substring(0, cut) + '\u0000' + text.substring(cut);
        String body = inKey ? json("v", withNul) : json(withNul, "value");
        Refusal refusal = assertThrows(RefusalException.class, () -> STORED.read(stream(body))).refusal();
        assertEquals(Refusal.Reason.INVALID, refusal.reason());
        assertTrue(refusal.message().contains("U+0000") || refusal.message().contains("surrogate"), refusal.message());
    }

    @Property(tries = 50)
    void pairedSurrogatesAreText(@ForAll @IntRange(min = 0x10000, max = 0x10FFFF) int codePoint) throws IOException {
        String text = "emoji " + Character.toString(codePoint);
        assertEquals(Map.of("outer", List.of(Map.of("value", text))), STORED.read(stream(json(text, "value"))));
    }

    /** {@code {"outer": [{key: value}]}}, every non-ASCII character escaped, so lone surrogates survive the writing. */
    private static String json(String value, String key) {
        try {
            StringWriter out = new StringWriter();
            try (JsonGenerator g = JSON.createGenerator(out)) {
                g.writeStartObject();
                g.writeArrayFieldStart("outer");
                g.writeStartObject();
                g.writeStringField(key, value);
                g.writeEndObject();
                g.writeEndArray();
                g.writeEndObject();
            }
            return out.toString();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ByteArrayInputStream stream(String body) {
        return new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8));
    }
}
