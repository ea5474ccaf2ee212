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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Expected values were produced with CPython 3's {@code repr} and {@code json.dumps}. */
class PythonJsonLengthTest {

    @ParameterizedTest
    @CsvSource({
        "1.0, 1.0", "0.5, 0.5", "1e-06, 0.000001", "0.0001, 0.0001", "1e-05, 0.00001", "0.0001234, 0.0001234",
        "1e+16, 1e16", "1000000000000000.0, 1e15", "1.2345678901234568e+17, 123456789012345678.0",
        "-0.0, -0.0", "0.1, 0.1", "2.5e-10, 2.5e-10", "1.7976931348623157e+308, 1.7976931348623157e308",
        "5e-324, 5e-324", "1e-323, 1e-323", "1.5e-323, 1.5e-323", "4e-323, 4e-323", "2.5e-322, 2.5e-322",
        "100.0, 100", "-3.25, -3.25", "0.3333333333333333, 0.3333333333333333",
        "12345.678, 12345.678", "9007199254740992.0, 9007199254740993.0", "1e+22, 1e22", "1.5e+16, 1.5e16",
    })
    void writesFloatsAsPythonRepr(String expected, double value) {
        assertEquals(expected, PythonJsonLength.pythonFloatRepr(value));
    }

    @Test
    void writesNonFiniteFloatsAsJsonDumpsDoes() {
        assertEquals("NaN", PythonJsonLength.pythonFloatRepr(Double.NaN));
        assertEquals("-Infinity", PythonJsonLength.pythonFloatRepr(Double.NEGATIVE_INFINITY));
    }

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
