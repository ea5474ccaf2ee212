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

    /** A Python string literal: single quotes unless the text holds a single quote and no double quote. */
    public static String string(String s) {
        char quote = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
        StringBuilder out = new StringBuilder().append(quote);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c == quote) {
                        out.append('\\').append(c);
                    } else if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append(quote).toString();
    }
}
