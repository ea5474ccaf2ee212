package dev.crucible.adapters.http.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class RequestFingerprintTest {

    @Property(tries = 200)
    void memberOrderDoesNotMatter(@ForAll @Size(max = 8) Map<String, Integer> members, @ForAll long seed) {
        List<Map.Entry<String, Integer>> shuffled = new ArrayList<>(members.entrySet());
        Collections.shuffle(shuffled, new java.util.Random(seed));
        Map<String, Object> reordered = new LinkedHashMap<>();
        shuffled.forEach(e -> reordered.put(e.getKey(), e.getValue()));
        assertEquals(RequestFingerprint.of(members), RequestFingerprint.of(reordered));
    }

    @Property(tries = 200)
    void differentStringsDigestDifferently(@ForAll String a, @ForAll String b) {
        if (!a.equals(b)) {
            assertNotEquals(RequestFingerprint.of(Map.of("k", a)), RequestFingerprint.of(Map.of("k", b)));
        }
    }

    @Test
    void partsAreNotMereConcatenations() {
        assertNotEquals(RequestFingerprint.of("ab", "c"), RequestFingerprint.of("a", "bc"));
        assertNotEquals(RequestFingerprint.of(List.of("a", "b")), RequestFingerprint.of(List.of("ab")));
        assertNotEquals(RequestFingerprint.of("1"), RequestFingerprint.of(1));
        assertNotEquals(RequestFingerprint.of((Object) null), RequestFingerprint.of("null"));
        assertNotEquals(RequestFingerprint.of(Map.of("a", List.of())), RequestFingerprint.of(Map.of("a", Map.of())));
        assertNotEquals(RequestFingerprint.of(true), RequestFingerprint.of("true"));
    }

    @Test
    void equalValuesDigestAlike() {
        Map<String, Object> body = Map.of("model_id", "m", "groups", Arrays.asList(1, 2.5, null, Map.of("x", false)));
        assertEquals(RequestFingerprint.of(body), RequestFingerprint.of(Map.copyOf(body)));
        assertEquals(64, RequestFingerprint.of(body).length());
    }

    @Test
    void nonJsonValuesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> RequestFingerprint.of(new Object()));
    }
}
