package dev.crucible.runtime.template;

import dev.crucible.kernel.python.PythonNumbers;
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
            case CharSequence s -> quote(s.toString());
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

    /** Python's string repr: single quotes unless the text has a single quote and no double quote. */
    private static String quote(String s) {
        char quote = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
        StringBuilder out = new StringBuilder().append(quote);
        s.codePoints().forEach(cp -> {
            switch (cp) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (cp == quote) {
                        out.append('\\').appendCodePoint(cp);
                    } else if (printable(cp)) {
                        out.appendCodePoint(cp);
                    } else {
                        String hex = Integer.toHexString(cp);
                        int width = cp <= 0xff ? 2 : cp <= 0xffff ? 4 : 8;
                        out.append(width == 2 ? "\\x" : width == 4 ? "\\u" : "\\U")
                                .append("0".repeat(width - hex.length())).append(hex);
                    }
                }
            }
        });
        return out.append(quote).toString();
    }

    /** Python's {@code str.isprintable} for one code point: no control, format, separator (but space), unassigned. */
    private static boolean printable(int cp) {
        if (cp == ' ') {
            return true;
        }
        return switch (Character.getType(cp)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED,
                    Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SPACE_SEPARATOR -> false;
            default -> true;
        };
    }
}
