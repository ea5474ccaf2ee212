package dev.crucible.runtime.structured;

import dev.crucible.domain.common.PythonStrings;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Compact JSON text of JSON-shaped Java values (maps, lists, strings, numbers, booleans, null), for enum and const. */
final class JsonText {

    private JsonText() {
    }

    static String of(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        switch (value) {
            case null -> out.append("null");
            case String s -> string(s, out);
            case Boolean b -> out.append(b);
            case Double d when d.isInfinite() || d.isNaN() ->
                throw new InvalidConstraintException("enum and const values must be finite numbers, got " + d);
            case Float f -> write(f.doubleValue(), out);
            case Double d -> out.append(d == Math.rint(d) && Math.abs(d) < 1e16 ? d.longValue() + ".0"
                    : BigDecimal.valueOf(d).toString());
            case Number n -> out.append(n);
            case Map<?, ?> map -> {
                out.append('{');
                Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
                while (it.hasNext()) {
                    Map.Entry<?, ?> e = it.next();
                    string(String.valueOf(e.getKey()), out);
                    out.append(':');
                    write(e.getValue(), out);
                    if (it.hasNext()) {
                        out.append(',');
                    }
                }
                out.append('}');
            }
            case List<?> list -> {
                out.append('[');
                for (int i = 0; i < list.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(list.get(i), out);
                }
                out.append(']');
            }
            default -> throw new InvalidConstraintException("not a JSON value: " + value);
        }
    }

    /** A JSON string literal: quotes, backslashes and control characters escaped. */
    static String string(String s) {
        StringBuilder out = new StringBuilder();
        string(s, out);
        return out.toString();
    }

    private static void string(String s, StringBuilder out) {
        PythonStrings.appendQuoted(s, false, out);
    }
}
