package dev.crucible.runtime.template;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Expected texts are Python 3.11's {@code json.dumps} output for the same values. */
class PythonJsonTest {

    private static final PythonJson DEFAULT = new PythonJson(false, null, null, null, false);

    @Test
    void writesNumbersAsPythonWritesIntsAndFloats() {
        List<Object> floats = List.of(0.1 + 0.2, 1e-05, 1e16, 1e22, 22.0, -0.0, 5e-324, 123456789.125, 1.5e301,
                Double.NaN);
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("f", floats);
        value.put("i", new BigInteger("100000000000000000000"));

        assertEquals("{\"f\": [0.30000000000000004, 1e-05, 1e+16, 1e+22, 22.0, -0.0, 5e-324, 123456789.125, 1.5e+301,"
                + " NaN], \"i\": 100000000000000000000}", DEFAULT.dumps(value));
    }

    @Test
    void escapesOnlyQuotesBackslashesAndControlsWithoutEnsureAscii() {
        assertEquals("\"\\u0000\\u001f\u007f\u00e9\u2028\uD83D\uDE00\\\"\\\\\\b\\f\\n\\r\\t\"",
                DEFAULT.dumps("\u0000\u001f\u007f\u00e9\u2028\uD83D\uDE00\"\\\b\f\n\r\t"));
    }

    @Test
    void escapesEverythingOutsidePrintableAsciiWithEnsureAscii() {
        assertEquals("\"\\u007f\\u00e9\\ud83d\\ude00\"",
                new PythonJson(true, null, null, null, false).dumps("\u007f\u00e9\uD83D\uDE00"));
    }

    @Test
    void indentsSortsKeysByCodePointAndKeepsEmptyContainersShort() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("b", Map.of());
        value.put("a", List.of());
        value.put("\u00e9", 1);
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("x", null);
        value.put("Z", Arrays.asList(1, inner));

        assertEquals("{\n  \"Z\": [\n    1,\n    {\n      \"x\": null\n    }\n  ],\n  \"a\": [],\n  \"b\": {},\n"
                + "  \"\\u00e9\": 1\n}", new PythonJson(true, "  ", null, null, true).dumps(value));
    }

    @Test
    void keepsInsertionOrderWithoutSortKeys() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("z", 1);
        value.put("a", true);
        value.put("m", false);

        assertEquals("{\"z\": 1, \"a\": true, \"m\": false}", DEFAULT.dumps(value));
    }

    @Test
    void breaksLinesWithoutIndentingForIndentZeroAndTakesCustomSeparators() {
        assertEquals("[\n1,\n[\n2\n]\n]", new PythonJson(false, "", null, null, false).dumps(List.of(1, List.of(2))));
        assertEquals("{\"a\":[1,2]}",
                new PythonJson(false, null, ",", ":", false).dumps(Map.of("a", List.of(1, 2))));
    }

    @Test
    void writesNonStringKeysAsPythonDoes() {
        Map<Object, Object> value = new LinkedHashMap<>();
        value.put(true, 1);
        value.put(null, 2);
        value.put(1.5, 3);

        assertEquals("{\"true\": 1, \"null\": 2, \"1.5\": 3}", DEFAULT.dumps(value));
    }
}
