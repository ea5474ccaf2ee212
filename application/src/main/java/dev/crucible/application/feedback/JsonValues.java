package dev.crucible.application.feedback;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** JSON-value semantics over plain Java values: JSON Schema's types and equality. */
final class JsonValues {

    private JsonValues() {
    }

    /** Whether {@code value} is of JSON Schema type {@code type}; an unknown type name matches nothing. */
    static boolean hasType(Object value, String type) {
        return switch (type) {
            case "null" -> value == null;
            case "boolean" -> value instanceof Boolean;
            case "string" -> value instanceof String;
            case "array" -> value instanceof List<?>;
            case "object" -> value instanceof Map<?, ?>;
            case "number" -> isNumber(value);
            case "integer" -> isNumber(value) && isIntegral((Number) value);
            default -> false;
        };
    }

    /** JSON equality: numbers by value, booleans apart from numbers, containers element by element. */
    static boolean equal(Object a, Object b) {
        if (isNumber(a) && isNumber(b)) {
            return finite((Number) a) && finite((Number) b) && decimal((Number) a).compareTo(decimal((Number) b)) == 0;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) {
                return false;
            }
            Iterator<?> i = x.iterator();
            Iterator<?> j = y.iterator();
            while (i.hasNext()) {
                if (!equal(i.next(), j.next())) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            return x.keySet().equals(y.keySet()) && x.keySet().stream().allMatch(k -> equal(x.get(k), y.get(k)));
        }
        return a == null ? b == null : a.equals(b);
    }

    /** The exact value of a finite JSON number. */
    static BigDecimal decimal(Number n) {
        return switch (n) {
            case BigDecimal d -> d;
            case BigInteger i -> new BigDecimal(i);
            case Long l -> BigDecimal.valueOf(l);
            case Integer i -> BigDecimal.valueOf(i);
            default -> new BigDecimal(Double.toString(n.doubleValue()));
        };
    }

    private static boolean isNumber(Object value) {
        return value instanceof Number;
    }

    private static boolean finite(Number n) {
        return !(n instanceof Double || n instanceof Float) || Double.isFinite(n.doubleValue());
    }

    private static boolean isIntegral(Number n) {
        return finite(n) && decimal(n).stripTrailingZeros().scale() <= 0;
    }
}
