package dev.crucible.kernel.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Expected texts are CPython 3's {@code repr} and {@code json.dumps} of the same values. */
class PythonNumbersTest {

    @ParameterizedTest
    @CsvSource({
        "1.0, 1.0", "0.5, 0.5", "0.000001, 1e-06", "0.0001, 0.0001", "0.00001, 1e-05", "0.0001234, 0.0001234",
        "1e16, 1e+16", "1e15, 1000000000000000.0", "123456789012345678.0, 1.2345678901234568e+17",
        "-0.0, -0.0", "0.1, 0.1", "2.5e-10, 2.5e-10", "1.7976931348623157e308, 1.7976931348623157e+308",
        "5e-324, 5e-324", "1e-323, 1e-323", "1.5e-323, 1.5e-323", "4e-323, 4e-323", "2.5e-322, 2.5e-322",
        "100, 100.0", "-3.25, -3.25", "0.3333333333333333, 0.3333333333333333",
        "12345.678, 12345.678", "9007199254740993.0, 9007199254740992.0", "1e22, 1e+22", "1.5e16, 1.5e+16",
        "2e23, 2e+23",
        "123456789.123, 123456789.123",
        "0.30000000000000004, 0.30000000000000004",
        "12345678901234567.0, 1.2345678901234568e+16",
        "2.5e-7, 2.5e-07",
        "9.999999999999999e15, 1e+16",
        "4.35, 4.35",
        "2.2250738585072014e-308, 2.2250738585072014e-308",
        "0.0, 0.0", "1e100, 1e+100", "1e-100, 1e-100", "0.00011, 0.00011", "0.00009999, 9.999e-05",
    })
    void writesFloatsAsPythonRepr(double value, String python) {
        assertEquals(python, PythonNumbers.repr(value));
    }

    @Test
    void writesNonFiniteFloatsAsJsonDumpsDoes() {
        assertEquals("NaN", PythonNumbers.repr(Double.NaN));
        assertEquals("Infinity", PythonNumbers.repr(Double.POSITIVE_INFINITY));
        assertEquals("-Infinity", PythonNumbers.repr(Double.NEGATIVE_INFINITY));
    }

    @Test
    void writesIntegersInFull() {
        assertEquals("9223372036854775807", PythonNumbers.repr(Long.MAX_VALUE));
        assertEquals("-7", PythonNumbers.repr(-7));
        assertEquals("-32768", PythonNumbers.repr(Short.MIN_VALUE));
        assertEquals("127", PythonNumbers.repr(Byte.MAX_VALUE));
        assertEquals("123456789012345678901234567890",
                PythonNumbers.repr(new BigInteger("123456789012345678901234567890")));
    }

    @Test
    void writesFloatAtItsShortestDecimalAndOtherNumbersAsTheirDouble() {
        assertEquals("0.1", PythonNumbers.repr(0.1f));
        assertEquals("1e+20", PythonNumbers.repr(1e20f));
        assertEquals("1.0", PythonNumbers.repr(new BigDecimal("1.00")));
        assertEquals("0.1", PythonNumbers.repr(new BigDecimal("0.1000000000000000000001")));
    }

    @Test
    void writesAsciiDigitsWhateverTheDefaultLocale() {
        Locale before = Locale.getDefault(Locale.Category.FORMAT);
        try {
            Locale.setDefault(Locale.Category.FORMAT, Locale.forLanguageTag("ar-SA"));
            assertEquals("1e+22", PythonNumbers.repr(1e22));
            assertEquals("2.5e-07", PythonNumbers.repr(2.5e-7));
        } finally {
            Locale.setDefault(Locale.Category.FORMAT, before);
        }
    }

    @Test
    void refusesNull() {
        assertThrows(NullPointerException.class, () -> PythonNumbers.repr(null));
    }
}
