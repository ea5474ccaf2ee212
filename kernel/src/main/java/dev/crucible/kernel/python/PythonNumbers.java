package dev.crucible.kernel.python;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Numbers as Python writes them in JSON ({@code json.dumps} with its defaults), which Weave's digests and size
 * limits are computed from. Pure, stateless and independent of the default locale, so safe from any thread.
 */
public final class PythonNumbers {

    private PythonNumbers() {
    }

    /**
     * The text Python writes for {@code n}: integers ({@link Integer}, {@link Long}, {@link Short}, {@link Byte},
     * {@link BigInteger}) in full; every other number is a Python float written as {@code repr} ({@code 1.0},
     * {@code 0.1}, {@code 1e+16}, {@code 1e-05}, {@code 5e-324}); the non-finite floats as {@code json.dumps}
     * writes them ({@code NaN}, {@code Infinity}, {@code -Infinity}). A {@link Float} is taken at its own shortest
     * decimal ({@code 0.1f} is {@code 0.1}); any other number (such as a {@link BigDecimal}) at its
     * {@link Number#doubleValue()}. The output is plain ASCII.
     *
     * @param n the number, never null
     * @throws NullPointerException if {@code n} is null
     */
    public static String repr(Number n) {
        return switch (n) {
            case Long l -> l.toString();
            case Integer i -> i.toString();
            case Short s -> s.toString();
            case Byte b -> b.toString();
            case BigInteger big -> big.toString();
            case Float f -> floatRepr(Double.parseDouble(Float.toString(f)));
            default -> floatRepr(n.doubleValue());
        };
    }

    /**
     * Python's {@code repr(float)}: the shortest round-tripping digits (which {@link Double#toString} also gives,
     * JDK 19+), positional for 1e-4 &lt;= |x| &lt; 1e16 with at least one decimal ({@code 1.0}), otherwise
     * {@code d[.ddd]e±XX}; {@code json.dumps} writes the non-finite values as {@code NaN} and {@code Infinity}.
     */
    private static String floatRepr(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        String sign = (d < 0 || (d == 0 && 1 / d < 0)) ? "-" : "";
        if (d == 0) {
            return sign + "0.0";
        }
        BigDecimal exact = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
        if (exact.precision() == 2) {
            // Double.toString writes at least two digits; Python writes one when one round-trips (5e-324)
            BigDecimal one = exact.round(new MathContext(1, RoundingMode.HALF_EVEN));
            if (one.doubleValue() == Math.abs(d)) {
                exact = one.stripTrailingZeros();
            }
        }
        String digits = exact.unscaledValue().toString();
        int decpt = digits.length() - exact.scale(); // the value is 0.<digits> x 10^decpt
        if (decpt <= -4 || decpt > 16) {
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            int exponent = decpt - 1;
            // padded by hand: String.format("%02d") would write the default locale's digits (Arabic, Thai, …)
            String expDigits = String.valueOf(Math.abs(exponent));
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (expDigits.length() < 2 ? "0" : "")
                    + expDigits;
        }
        if (decpt <= 0) {
            return sign + "0." + "0".repeat(-decpt) + digits;
        }
        if (decpt >= digits.length()) {
            return sign + digits + "0".repeat(decpt - digits.length()) + ".0";
        }
        return sign + digits.substring(0, decpt) + "." + digits.substring(decpt);
    }
}
