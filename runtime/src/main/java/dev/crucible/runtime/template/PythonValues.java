package dev.crucible.runtime.template;

import dev.crucible.kernel.python.PythonNumbers;
import dev.crucible.kernel.python.PythonRepr;
import java.util.Map;
import java.util.StringJoiner;

/**
 * How jinja2 prints a value in {@code {{ … }}}: Python's {@code str()}, so {@code True}, {@code 1e-05},
 * {@code ['a', 1]} and {@code {'k': None}}. A null at the top prints as nothing, because Jinjava cannot tell jinja2's
 * {@code Undefined} (which prints as nothing) from {@code None}; inside a list or dict it is {@code None}. Stateless.
 */
final class PythonValues {

    private PythonValues() {
    }

    /** Python's {@code str(value)}, with null as the empty string. */
    static String str(Object value) {
        return switch (value) {
            case null -> "";
            case CharSequence s -> s.toString();
            default -> repr(value);
        };
    }

    /** Python's {@code repr(value)} for JSON-shaped values. */
    static String repr(Object value) {
        return switch (value) {
            case null -> "None";
            case Boolean b -> b ? "True" : "False";
            case Double d when d.isNaN() -> "nan";
            case Double d when d.isInfinite() -> d > 0 ? "inf" : "-inf";
            case Number n -> PythonNumbers.repr(n);
            case CharSequence s -> PythonRepr.string(s.toString());
            case Map<?, ?> map -> {
                StringJoiner out = new StringJoiner(", ", "{", "}");
                map.forEach((k, v) -> out.add(repr(k) + ": " + repr(v)));
                yield out.toString();
            }
            case Iterable<?> items -> {
                StringJoiner out = new StringJoiner(", ", "[", "]");
                items.forEach(item -> out.add(repr(item)));
                yield out.toString();
            }
            default -> value.toString();
        };
    }

    /** Python's {@code a == b} for JSON-shaped values: numbers by value ({@code 1 == 1.0}), the rest by equality. */
    static boolean equal(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return x.doubleValue() == y.doubleValue();
        }
        return java.util.Objects.equals(a, b);
    }
}
