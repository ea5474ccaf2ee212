package dev.crucible.domain.feedback;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * The length of Python's {@code json.dumps(value)} with its defaults ({@code ensure_ascii=True}, separators
 * {@code ", "} and {@code ": "}, {@code allow_nan=True}), without building the text: Weave's payload-size limit is
 * measured that way. A character outside printable ASCII counts 6 ({@code \}{@code uXXXX}), so one outside the
 * basic plane (a surrogate pair) counts 12; floats count as Python's {@code repr} writes them.
 */
public final class PythonJsonLength {

    private PythonJsonLength() {
    }

    /**
     * The length for a JSON-shaped value: {@link Map} with string keys, {@link List}, {@link String},
     * {@link Number}, {@link Boolean} or null. Iterative, so deep nesting cannot overflow the stack.
     *
     * @throws IllegalArgumentException for any other type, which a JSON parser never produces
     */
    public static long of(Object value) {
        long total = 0;
        Deque<Object> pending = new ArrayDeque<>();
        total += push(pending, value);
        while (!pending.isEmpty()) {
            Object next = pending.pop();
            switch (next) {
                case Map<?, ?> map -> {
                    total += 2 + separators(map.size());
                    for (Map.Entry<?, ?> entry : map.entrySet()) {
                        if (!(entry.getKey() instanceof String key)) {
                            throw new IllegalArgumentException("JSON object keys must be strings, got "
                                    + entry.getKey());
                        }
                        total += string(key) + 2 + push(pending, entry.getValue());
                    }
                }
                case List<?> list -> {
                    total += 2 + separators(list.size());
                    for (Object item : list) {
                        total += push(pending, item);
                    }
                }
                case String s -> total += string(s);
                case Boolean b -> total += b ? 4 : 5;
                case Number n -> total += number(n).length();
                default -> throw new IllegalArgumentException("not a JSON value: " + next.getClass().getName());
            }
        }
        return total;
    }

    /** Queues a value for counting, or counts a null at once (the deque holds no nulls). */
    private static long push(Deque<Object> pending, Object value) {
        if (value == null) {
            return 4;
        }
        pending.push(value);
        return 0;
    }

    private static long separators(int items) {
        return items == 0 ? 0 : 2L * (items - 1);
    }

    /** A string with its quotes, escaped as {@code json.dumps} does with {@code ensure_ascii=True}. */
    static long string(String s) {
        long length = 2;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f') {
                length += 2;
            } else if (c < 0x20 || c > 0x7e) {
                length += 6;
            } else {
                length += 1;
            }
        }
        return length;
    }

    /** A number as Python writes it: integers in full, floats as {@code repr}. */
    static String number(Number n) {
        return switch (n) {
            case Long l -> l.toString();
            case Integer i -> i.toString();
            case Short s -> s.toString();
            case Byte b -> b.toString();
            case BigInteger big -> big.toString();
            case Float f -> pythonFloatRepr(Double.parseDouble(Float.toString(f)));
            default -> pythonFloatRepr(n.doubleValue());
        };
    }

    /**
     * Python's {@code repr(float)}: the shortest round-tripping digits (which {@link Double#toString} also gives),
     * positional for 1e-4 &lt;= |x| &lt; 1e16 with at least one decimal ({@code 1.0}), otherwise
     * {@code d[.ddd]e±XX}; {@code json.dumps} writes the non-finite values as {@code NaN} and {@code Infinity}.
     */
    static String pythonFloatRepr(double d) {
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
