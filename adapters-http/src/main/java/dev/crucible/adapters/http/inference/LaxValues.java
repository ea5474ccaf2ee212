package dev.crucible.adapters.http.inference;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * JSON values converted as pydantic's default (lax) mode converts them: a boolean may be sent as {@code "true"} or
 * {@code 1}, a number as a numeric string, an integer as {@code 2.0}; a value that does not fit is a
 * {@link SchemaError} at {@code at} with pydantic's error type.
 */
final class LaxValues {

    private static final Set<String> TRUE = Set.of("1", "on", "t", "true", "y", "yes");
    private static final Set<String> FALSE = Set.of("0", "off", "f", "false", "n", "no");
    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private LaxValues() {
    }

    static String asString(Object v, List<Object> at) {
        if (v instanceof String s) {
            return s;
        }
        throw SchemaError.of(at, "string_type", "Input should be a valid string", v);
    }

    static Map<String, Object> asObject(Object v, List<Object> at) {
        if (v instanceof Map<?, ?> m) {
            @SuppressWarnings("unchecked")
            Map<String, Object> map = (Map<String, Object>) m;
            return map;
        }
        throw SchemaError.of(at, "dict_type", "Input should be a valid dictionary", v);
    }

    static Boolean asBool(Object v, List<Object> at) {
        switch (v) {
            case Boolean b -> {
                return b;
            }
            case String s when TRUE.contains(s.toLowerCase()) -> {
                return true;
            }
            case String s when FALSE.contains(s.toLowerCase()) -> {
                return false;
            }
            case String s -> throw SchemaError.of(at, "bool_parsing",
                    "Input should be a valid boolean, unable to interpret input", v);
            case Number n when n.doubleValue() == 0 || n.doubleValue() == 1 -> {
                return n.doubleValue() == 1;
            }
            default -> throw SchemaError.of(at, "bool_type", "Input should be a valid boolean", v);
        }
    }

    static Double asDouble(Object v, List<Object> at) {
        if (v instanceof Number n && !(v instanceof Boolean)) {
            return n.doubleValue();
        }
        if (v instanceof String s) {
            try {
                return Double.parseDouble(s.strip());
            } catch (NumberFormatException e) {
                throw SchemaError.of(at, "float_parsing", "Input should be a valid number, unable to parse string as a number", v);
            }
        }
        throw SchemaError.of(at, "float_type", "Input should be a valid number", v);
    }

    static BigInteger asInteger(Object v, List<Object> at) {
        switch (v) {
            case Integer i -> {
                return BigInteger.valueOf(i);
            }
            case Long l -> {
                return BigInteger.valueOf(l);
            }
            case BigInteger b -> {
                return b;
            }
            case Number n when isWhole(n) -> {
                return new BigDecimal(n.toString()).toBigIntegerExact();
            }
            case Number n -> throw SchemaError.of(at, "int_from_float",
                    "Input should be a valid integer, got a number with a fractional part", v);
            case String s when s.strip().matches("[+-]?\\d+") -> {
                return new BigInteger(s.strip().replace("+", ""));
            }
            case String s -> throw SchemaError.of(at, "int_parsing",
                    "Input should be a valid integer, unable to parse string as an integer", v);
            default -> throw SchemaError.of(at, "int_type", "Input should be a valid integer", v);
        }
    }

    static long saturate(BigInteger b) {
        return b.max(LONG_MIN).min(LONG_MAX).longValue();
    }

    private static boolean isWhole(Number n) {
        double d = n.doubleValue();
        return Double.isFinite(d) && d == Math.rint(d);
    }
}
