package dev.crucible.domain.feedback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Expected values were produced with CPython 3's {@code repr} and {@code json.dumps}. */
class PythonJsonLengthTest {

    @Test
    void countsIntegersInFull() {
        assertEquals(19, PythonJsonLength.of(Long.MAX_VALUE));
        assertEquals(2, PythonJsonLength.of(-7));
        assertEquals(25, PythonJsonLength.of(new BigInteger("1234567890123456789012345")));
    }

    @Test
    void countsReactionPayloadWithSurrogatePairsAsTwelve() {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("emoji", "👍");
        payload.put("alias", ":thumbs_up:");
        payload.put("detoned", "👍");
        payload.put("detoned_alias", ":thumbs_up:");
        assertEquals(108, PythonJsonLength.of(payload));
    }

    @Test
    void countsEscapesSeparatorsAndEmptyContainers() {
        // json.dumps({"a": [1, 2.0, None, True, False, "é\n\"\\\x7f\x01"], "b": {}, "c": []}) has 80 characters
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("a", Arrays.asList(1L, 2.0, null, true, false, "é\n\"\\\u007f\u0001"));
        payload.put("b", Map.of());
        payload.put("c", List.of());
        assertEquals(80, PythonJsonLength.of(payload));
    }

    @Test
    void countsNullAtTopLevel() {
        assertEquals(4, PythonJsonLength.of(null));
    }

    @Test
    void handlesDeepNestingWithoutRecursion() {
        Object value = "x";
        for (int i = 0; i < 100_000; i++) {
            List<Object> wrapper = new ArrayList<>();
            wrapper.add(value);
            value = wrapper;
        }
        assertEquals(200_003, PythonJsonLength.of(value));
    }

    @Test
    void rejectsValuesAJsonParserNeverProduces() {
        assertThrows(IllegalArgumentException.class, () -> PythonJsonLength.of(Map.of("a", new Object())));
    }
}
