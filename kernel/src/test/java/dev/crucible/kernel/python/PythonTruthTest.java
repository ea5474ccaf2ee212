package dev.crucible.kernel.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.NotEmpty;
import org.junit.jupiter.api.Test;

/** Expected values are CPython 3's {@code bool(x)} of the same values. */
class PythonTruthTest {

    /** A JSON number is Python's float or int: {@code 1e-400} reads as {@code 0.0}, so it is false there too. */
    @Test
    void noneFalseZeroAndEmptyValuesAreFalse() {
        for (Object value : new Object[] {null, false, 0, 0L, 0.0, -0.0, BigInteger.ZERO, new BigDecimal("0.00"), "",
                List.of(), Map.of(), new BigDecimal("1e-400")}) {
            assertFalse(PythonTruth.of(value), String.valueOf(value));
        }
    }

    @Test
    void trueNonZeroNonEmptyAndOtherValuesAreTrue() {
        for (Object value : new Object[] {true, 1, -1L, 0.5, Double.NaN, new BigDecimal("1e-300"), " ", "False",
                List.of(0), Map.of("", ""), new Object()}) {
            assertTrue(PythonTruth.of(value), String.valueOf(value));
        }
    }

    @Property
    void aNonEmptyStringOrListIsTrueWhateverItHolds(@ForAll @NotEmpty String text,
            @ForAll @NotEmpty List<Integer> items) {
        assertTrue(PythonTruth.of(text));
        assertTrue(PythonTruth.of(items));
    }

    @Property
    void aNumberIsTrueExactlyWhenItIsNotZero(@ForAll long number) {
        assertEquals(number != 0, PythonTruth.of(number));
    }
}
