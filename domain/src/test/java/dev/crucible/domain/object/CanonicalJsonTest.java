package dev.crucible.domain.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Expected texts are Python 3.11's {@code json.dumps(val, sort_keys=True)} of the same values. */
class CanonicalJsonTest {

    @Test
    void sortsKeysAndUsesPythonsDefaultSeparators() {
        Map<String, Object> val = new LinkedHashMap<>();
        val.put("b", 1);
        val.put("a", List.of(1, 2.5, "x"));
        val.put("c", null);
        val.put("d", false);
        assertEquals("{\"a\": [1, 2.5, \"x\"], \"b\": 1, \"c\": null, \"d\": false}", CanonicalJson.write(val));
    }

    @Test
    void sortsKeysByCodePointNotByUtf16Unit() {
        Map<String, Object> val = new LinkedHashMap<>();
        val.put("\uD83D\uDE00", 1);
        val.put("\uFFFF", 2);
        val.put("a", 3);
        val.put("B", 4);
        assertEquals("{\"B\": 4, \"a\": 3, \"\\uffff\": 2, \"\\ud83d\\ude00\": 1}", CanonicalJson.write(val));
    }

    @Test
    void escapesEverythingOutsidePrintableAsciiLikeEnsureAscii() {
        Map<String, Object> val = new LinkedHashMap<>();
        val.put("name", "caf\u00e9 \uD83D\uDC4D");
        val.put("\u00e9", "\u007f\u0001\n\"\\");
        assertEquals("{\"name\": \"caf\\u00e9 \\ud83d\\udc4d\", \"\\u00e9\": \"\\u007f\\u0001\\n\\\"\\\\\"}",
                CanonicalJson.write(val));
    }

    @Test
    void writesIntegersInFullAndFloatsAsPythonRepr() {
        List<Object> val = List.of(1.0, 0.1, 1e16, 1e-5, 0.0001, -0.0, Double.MIN_VALUE,
                new BigInteger("123456789012345678901234567890"), 1.5e300, 100.0);
        assertEquals("[1.0, 0.1, 1e+16, 1e-05, 0.0001, -0.0, 5e-324, 123456789012345678901234567890, 1.5e+300, 100.0]",
                CanonicalJson.write(val));
    }

    @Test
    void decimalsAreFloatsAndNonFiniteFloatsAreWrittenAsPythonDoes() {
        assertEquals("[1.0, NaN, -Infinity, 7, true, null, \"s\"]", CanonicalJson.write(Arrays.asList(
                new BigDecimal("1.00"), Double.NaN, Double.NEGATIVE_INFINITY, 7L, true, null, "s")));
    }

    @Test
    void refusesWhatJsonCannotHold() {
        assertThrows(IllegalArgumentException.class, () -> CanonicalJson.write(List.of(new Object())));
        assertThrows(IllegalArgumentException.class, () -> CanonicalJson.write(Map.of(1, "x")));
    }
}
