package dev.crucible.domain.object;

import dev.crucible.domain.common.PythonNumbers;
import dev.crucible.domain.common.PythonStrings;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The JSON text that an object's digest hashes: exactly Python's {@code json.dumps(val, sort_keys=True)}, which is
 * what Weave's {@code compute_object_digest} hashes. That means:
 * <ul>
 *   <li>keys sorted by code point (Python's {@code str} order, not Java's UTF-16 order);</li>
 *   <li>Python's default separators {@code ", "} and {@code ": "}, no other whitespace;</li>
 *   <li>{@code ensure_ascii=True}: {@code "}, {@code \}, {@code \n}, {@code \r}, {@code \t}, {@code \b}, {@code \f}
 *       escaped by letter, every other character outside {@code ' '..'~'} as {@code \}{@code uxxxx} (lower-case hex,
 *       one escape per UTF-16 unit, so a character outside the basic plane is a surrogate pair);</li>
 *   <li>numbers as {@link PythonNumbers#repr}: integers ({@code Integer}, {@code Long}, {@code BigInteger}, …) in
 *       full; every other number is a Python float written as {@code repr} ({@code 1.0}, {@code 1e+16},
 *       {@code 1e-05}), non-finite ones as {@code NaN} / {@code Infinity}.</li>
 * </ul>
 * The output is plain ASCII. Recursive: nesting depth is bounded by the JSON parser that built the value.
 */
public final class CanonicalJson {

    /** Python's {@code str} ordering: by Unicode code point. */
    private static final Comparator<String> CODE_POINT_ORDER = (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    };

    private CanonicalJson() {
    }

    /**
     * The canonical text of a JSON-shaped value: {@link Map} with string keys, {@link List}, {@link String},
     * {@link Number}, {@link Boolean} or null.
     *
     * @throws IllegalArgumentException for any other type, which a JSON parser never produces
     */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        switch (value) {
            case null -> out.append("null");
            case Map<?, ?> map -> object(map, out);
            case List<?> list -> {
                out.append('[');
                for (int i = 0; i < list.size(); i++) {
                    out.append(i == 0 ? "" : ", ");
                    write(list.get(i), out);
                }
                out.append(']');
            }
            case String s -> string(s, out);
            case Boolean b -> out.append(b ? "true" : "false");
            case Number n -> out.append(PythonNumbers.repr(n));
            default -> throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
        }
    }

    private static void object(Map<?, ?> map, StringBuilder out) {
        List<String> keys = new ArrayList<>(map.size());
        for (Object key : map.keySet()) {
            if (!(key instanceof String s)) {
                throw new IllegalArgumentException("JSON object keys must be strings, got " + key);
            }
            keys.add(s);
        }
        keys.sort(CODE_POINT_ORDER);
        out.append('{');
        for (int i = 0; i < keys.size(); i++) {
            out.append(i == 0 ? "" : ", ");
            string(keys.get(i), out);
            out.append(": ");
            write(map.get(keys.get(i)), out);
        }
        out.append('}');
    }

    private static void string(String s, StringBuilder out) {
        PythonStrings.appendQuoted(s, true, out);
    }
}
