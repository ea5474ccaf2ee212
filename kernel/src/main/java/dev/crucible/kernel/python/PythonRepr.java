package dev.crucible.kernel.python;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Python's {@code repr} of JSON values and strings, as vLLM's f-strings and pydantic's error dicts print them.
 * Locale-independent; stateless.
 */
public final class PythonRepr {

    private PythonRepr() {
    }

    /** The repr of a JSON value: None, True/False, numbers as Python writes them, strings, lists and dicts. */
    public static String of(Object value) {
        return switch (value) {
            case null -> "None";
            case Boolean b -> b ? "True" : "False";
            case Number n -> PythonNumbers.repr(n);
            case String s -> string(s);
            case List<?> l -> l.stream().map(PythonRepr::of).collect(Collectors.joining(", ", "[", "]"));
            case Map<?, ?> m -> m.entrySet().stream().map(e -> of(e.getKey()) + ": " + of(e.getValue()))
                    .collect(Collectors.joining(", ", "{", "}"));
            default -> string(value.toString());
        };
    }

    /**
     * A Python string literal: single quotes unless the text holds a single quote and no double quote; a code point
     * {@code str.isprintable} refuses is escaped as Python escapes it: backslash and x, u or U with two, four or eight
     * lower-case hex digits.
     */
    public static String string(String s) {
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
