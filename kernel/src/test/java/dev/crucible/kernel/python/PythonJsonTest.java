package dev.crucible.kernel.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Expected texts are CPython 3.11's {@code json.dumps} output for the same values, with the options each test names;
 * expected lengths are the lengths of that output.
 */
class PythonJsonTest {

    /** What Weave's object digest hashes: {@code json.dumps(val, sort_keys=True)}. */
    private static final PythonJson CANONICAL = PythonJson.DEFAULT.sortKeys(true);

    /** transformers' {@code tojson} default: {@code ensure_ascii=False}. */
    private static final PythonJson UNESCAPED = PythonJson.DEFAULT.ensureAscii(false);

    // sort_keys=True, as Weave digests objects
    @Test
    void sortsKeysAndUsesPythonsDefaultSeparators() {
        Map<String, Object> val = new LinkedHashMap<>();
        val.put("b", 1);
        val.put("a", List.of(1, 2.5, "x"));
        val.put("c", null);
        val.put("d", false);
        assertEquals("{\"a\": [1, 2.5, \"x\"], \"b\": 1, \"c\": null, \"d\": false}", CANONICAL.dumps(val));
    }

    @Test
    void sortsKeysByCodePointNotByUtf16Unit() {
        Map<String, Object> val = new LinkedHashMap<>();
        val.put("\uD83D\uDE00", 1);
        val.put("\uFFFF", 2);
        val.put("a", 3);
        val.put("B", 4);
        assertEquals("{\"B\": 4, \"a\": 3, \"\\uffff\": 2, \"\\ud83d\\ude00\": 1}", CANONICAL.dumps(val));
    }

    @Test
    void escapesEverythingOutsidePrintableAsciiLikeEnsureAscii() {
        Map<String, Object> val = new LinkedHashMap<>();
        val.put("name", "caf\u00e9 \uD83D\uDC4D");
        val.put("\u00e9", "\u007f\u0001\n\"\\");
        assertEquals("{\"name\": \"caf\\u00e9 \\ud83d\\udc4d\", \"\\u00e9\": \"\\u007f\\u0001\\n\\\"\\\\\"}",
                CANONICAL.dumps(val));
    }

    @Test
    void writesIntegersInFullAndFloatsAsPythonRepr() {
        List<Object> val = List.of(1.0, 0.1, 1e16, 1e-5, 0.0001, -0.0, Double.MIN_VALUE,
                new BigInteger("123456789012345678901234567890"), 1.5e300, 100.0);
        assertEquals("[1.0, 0.1, 1e+16, 1e-05, 0.0001, -0.0, 5e-324, 123456789012345678901234567890, 1.5e+300, 100.0]",
                CANONICAL.dumps(val));
    }

    @Test
    void decimalsAreFloatsAndNonFiniteFloatsAreWrittenAsPythonDoes() {
        assertEquals("[1.0, NaN, -Infinity, 7, true, null, \"s\"]", CANONICAL.dumps(Arrays.asList(
                new BigDecimal("1.00"), Double.NaN, Double.NEGATIVE_INFINITY, 7L, true, null, "s")));
    }

    @Test
    void refusesWhatJsonCannotHold() {
        assertThrows(IllegalArgumentException.class, () -> CANONICAL.dumps(List.of(new Object())));
        assertThrows(IllegalArgumentException.class, () -> CANONICAL.dumps(Map.of(1, "x")));
    }

    // lengths, as Weave measures payloads
    @Test
    void countsIntegersInFull() {
        assertEquals(19, PythonJson.DEFAULT.length(Long.MAX_VALUE));
        assertEquals(2, PythonJson.DEFAULT.length(-7));
        assertEquals(25, PythonJson.DEFAULT.length(new BigInteger("1234567890123456789012345")));
    }

    @Test
    void countsReactionPayloadWithSurrogatePairsAsTwelve() {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("emoji", "👍");
        payload.put("alias", ":thumbs_up:");
        payload.put("detoned", "👍");
        payload.put("detoned_alias", ":thumbs_up:");
        assertEquals(108, PythonJson.DEFAULT.length(payload));
    }

    @Test
    void countsEscapesSeparatorsAndEmptyContainers() {
        // json.dumps({"a": [1, 2.0, None, True, False, "é\n\"\\\x7f\x01"], "b": {}, "c": []}) has 80 characters
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("a", Arrays.asList(1L, 2.0, null, true, false, "é\n\"\\\u007f\u0001"));
        payload.put("b", Map.of());
        payload.put("c", List.of());
        assertEquals(80, PythonJson.DEFAULT.length(payload));
    }

    @Test
    void countsNullAtTopLevel() {
        assertEquals(4, PythonJson.DEFAULT.length(null));
    }

    @Test
    void handlesDeepNestingWithoutRecursion() {
        Object value = "x";
        for (int i = 0; i < 100_000; i++) {
            List<Object> wrapper = new ArrayList<>();
            wrapper.add(value);
            value = wrapper;
        }
        assertEquals(200_003, PythonJson.DEFAULT.length(value));
    }

    @Test
    void rejectsValuesAJsonParserNeverProduces() {
        assertThrows(IllegalArgumentException.class, () -> PythonJson.DEFAULT.length(Map.of("a", new Object())));
    }

    // tojson's options
    @Test
    void writesNumbersAsPythonWritesIntsAndFloats() {
        List<Object> floats = List.of(0.1 + 0.2, 1e-05, 1e16, 1e22, 22.0, -0.0, 5e-324, 123456789.125, 1.5e301,
                Double.NaN);
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("f", floats);
        value.put("i", new BigInteger("100000000000000000000"));

        assertEquals("{\"f\": [0.30000000000000004, 1e-05, 1e+16, 1e+22, 22.0, -0.0, 5e-324, 123456789.125, 1.5e+301,"
                + " NaN], \"i\": 100000000000000000000}", UNESCAPED.dumps(value));
    }

    @Test
    void escapesOnlyQuotesBackslashesAndControlsWithoutEnsureAscii() {
        assertEquals("\"\\u0000\\u001f\u007f\u00e9\u2028\uD83D\uDE00\\\"\\\\\\b\\f\\n\\r\\t\"",
                UNESCAPED.dumps("\u0000\u001f\u007f\u00e9\u2028\uD83D\uDE00\"\\\b\f\n\r\t"));
    }

    @Test
    void escapesEverythingOutsidePrintableAsciiWithEnsureAscii() {
        assertEquals("\"\\u007f\\u00e9\\ud83d\\ude00\"",
                PythonJson.DEFAULT.dumps("\u007f\u00e9\uD83D\uDE00"));
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
                + "  \"\\u00e9\": 1\n}", PythonJson.DEFAULT.indent("  ").sortKeys(true).dumps(value));
    }

    @Test
    void keepsInsertionOrderWithoutSortKeys() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("z", 1);
        value.put("a", true);
        value.put("m", false);

        assertEquals("{\"z\": 1, \"a\": true, \"m\": false}", UNESCAPED.dumps(value));
    }

    @Test
    void breaksLinesWithoutIndentingForIndentZeroAndTakesCustomSeparators() {
        assertEquals("[\n1,\n[\n2\n]\n]", UNESCAPED.indent("").dumps(List.of(1, List.of(2))));
        assertEquals("{\"a\":[1,2]}",
                UNESCAPED.separators(",", ":").dumps(Map.of("a", List.of(1, 2))));
    }

    @Test
    void lenientWritesNonStringKeysAsPythonDoes() {
        Map<Object, Object> value = new LinkedHashMap<>();
        value.put(true, 1);
        value.put(null, 2);
        value.put(1.5, 3);

        assertEquals("{\"true\": 1, \"null\": 2, \"1.5\": 3}", UNESCAPED.lenient().dumps(value));
    }

    // string literals
    private static String quoted(String s, boolean ensureAscii) {
        StringBuilder out = new StringBuilder();
        PythonJson.appendQuoted(s, ensureAscii, out);
        return out.toString();
    }

    @Test
    void escapesQuotesBackslashesAndNamedControls() {
        assertEquals("\"a\\\"b\\\\c\\n\\r\\t\\b\\f\"", quoted("a\"b\\c\n\r\t\b\f", false));
    }

    @Test
    void otherControlsBecomeLowerCaseUnicodeEscapes() {
        assertEquals("\"\\u0001\\u001f\"", quoted("\u0001\u001f", false));
    }

    @Test
    void ensureAsciiEscapesEverythingOutsidePrintableAsciiIncludingSurrogatePairs() {
        assertEquals("\"caf\\u00e9 \\ud83d\\udc4d \\u007f\"", quoted("café 👍 \u007f", true));
        assertEquals("\"café 👍 \u007f\"", quoted("café 👍 \u007f", false));
    }

    @Test
    void refusesNonFiniteFloatsWithoutAllowNan() {
        PythonJson.OutOfRange e = assertThrows(PythonJson.OutOfRange.class,
                () -> PythonJson.DEFAULT.allowNan(false).dumps(List.of(1, Double.NEGATIVE_INFINITY)));
        assertEquals(Double.NEGATIVE_INFINITY, e.value());
        assertEquals("[1, 2.5]", PythonJson.DEFAULT.allowNan(false).dumps(List.of(1, 2.5)));
    }

    @Test
    void countsExactlyWhatItWritesAtEveryEscapeBoundary() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("\u001f \u007e\u007f\u00e9\"\\\n\r\t\b\f", Arrays.asList("\u001f", " ", "~", "\u007f", "\u00e9", null));
        value.put("nested", Map.of("k", List.of(List.of(), Map.of(), true, false, 1.5, 7)));
        value.put("empty", new LinkedHashMap<>());
        for (boolean ascii : new boolean[] {true, false}) {
            PythonJson json = PythonJson.DEFAULT.ensureAscii(ascii);
            assertEquals(json.dumps(value).length(), json.length(value), "ensure_ascii=" + ascii);
            assertEquals(json.dumps(List.of("a", "b", "c")).length(), json.length(List.of("a", "b", "c")));
        }
        assertEquals("[\"\\u001f\", \" \", \"~\", \"\\u007f\", \"\\u00e9\"]",
                PythonJson.DEFAULT.dumps(List.of("\u001f", " ", "~", "\u007f", "\u00e9")));
        assertEquals("[\"\\u001f\", \" \", \"~\", \"\u007f\", \"\u00e9\"]",
                PythonJson.DEFAULT.ensureAscii(false).dumps(List.of("\u001f", " ", "~", "\u007f", "\u00e9")));
    }

    @Test
    void lenientWritesIterablesAndArraysAsListsAndOtherObjectsAsText() {
        PythonJson lenient = PythonJson.DEFAULT.lenient();
        assertEquals("[1, 2]", lenient.dumps(new java.util.TreeSet<>(List.of(2, 1))));
        assertEquals("[3, 4]", lenient.dumps(new int[] {3, 4}));
        assertEquals("[\"x\", null]", lenient.dumps(new Object[] {"x", null}));
        assertEquals("\"PT1S\"", lenient.dumps(java.time.Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> PythonJson.DEFAULT.dumps(new int[] {3}));
    }
}
