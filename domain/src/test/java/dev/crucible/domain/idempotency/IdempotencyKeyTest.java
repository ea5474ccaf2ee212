package dev.crucible.domain.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Outcome;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class IdempotencyKeyTest {

    @ParameterizedTest
    @ValueSource(strings = {"a", "0192f0a2-0000-7000-8000-000000000001", "retry me #1", "~!@"})
    void printableAsciiKeysAreTaken(String key) {
        assertEquals(key, ((Outcome.Done<IdempotencyKey>) IdempotencyKey.parse(key)).value().value());
    }

    @Test
    void theLongestKeyIs255Characters() {
        assertInstanceOf(Outcome.Done.class, IdempotencyKey.parse("k".repeat(255)));
        assertRefused("k".repeat(256), "at most 255");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "tab\tkey", "nul\u0000", "caf\u00e9", "line\nbreak"})
    void blankAndNonAsciiKeysAreRefused(String key) {
        assertRefused(key, IdempotencyKey.HEADER);
    }

    @Test
    void aMissingKeyIsRefusedAndTheRecordChecksToo() {
        assertRefused(null, "missing");
        assertThrows(IllegalArgumentException.class, () -> new IdempotencyKey(" "));
    }

    private static void assertRefused(String key, String fragment) {
        var refused = assertInstanceOf(Outcome.Refused.class, IdempotencyKey.parse(key));
        assertEquals(IdempotencyKey.HEADER, refused.refusal().param());
        assertTrue(refused.refusal().message().contains(fragment), refused.refusal().message());
    }
}
