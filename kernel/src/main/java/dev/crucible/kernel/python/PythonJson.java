package dev.crucible.kernel.python;

import java.lang.reflect.Array;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Python's {@code json.dumps(value, ensure_ascii=…, indent=…, separators=…, sort_keys=…, allow_nan=…)}, the one copy
 * in Crucible: Weave's object digests hash it ({@code sort_keys=True}), Weave's payload limit measures it, chat
 * templates' {@code tojson} filter is it, and tool-call arguments and structured-output literals are written as vLLM
 * writes them with it. Numbers are {@link PythonNumbers#repr}; strings escape quote, backslash and controls, and with
 * {@code ensure_ascii} every char outside space..~ (one {@code \}{@code uxxxx} per UTF-16 unit, lower-case hex).
 * Sorted keys compare by code point, as Python compares {@code str}. Immutable and thread-safe; {@link #DEFAULT} is
 * Python's defaults ({@code ensure_ascii=True}, {@code ", "} and {@code ": "}, {@code allow_nan=True}).
 *
 * <p>Strict (the default), a value is JSON-shaped, as a JSON parser builds it: {@link Map} with {@link String} keys,
 * {@link List}, {@link String}, {@link Number}, {@link Boolean} or null; anything else is an
 * {@link IllegalArgumentException}. {@link #lenient} takes values as a template holds them: keys become strings as
 * Python makes them ({@code True} is {@code "true"}, {@code None} {@code "null"}), any {@link Iterable} or array is a
 * list, any other object its {@code toString} (Python's {@code default=str}).
 */
public final class PythonJson {

    /** Python's {@code json.dumps} defaults. */
    public static final PythonJson DEFAULT = new PythonJson(true, null, null, null, false, true, false);

    /** Thrown for a non-finite float when {@code allow_nan=False}, as Python raises {@code ValueError}. */
    public static final class OutOfRange extends IllegalArgumentException {
        private final transient Number value;

        OutOfRange(Number value) {
            super("Out of range float values are not JSON compliant: " + PythonNumbers.repr(value), null);
            this.value = value;
        }

        /** The non-finite number met. */
        public Number value() {
            return value;
        }
    }

    private final boolean ensureAscii;
    private final String indent;
    private final String itemSeparator;
    private final String keySeparator;
    private final boolean sortKeys;
    private final boolean allowNan;
    private final boolean lenient;

    private PythonJson(boolean ensureAscii, String indent, String itemSeparator, String keySeparator,
            boolean sortKeys, boolean allowNan, boolean lenient) {
        this.ensureAscii = ensureAscii;
        this.indent = indent;
        this.itemSeparator = itemSeparator;
        this.keySeparator = keySeparator;
        this.sortKeys = sortKeys;
        this.allowNan = allowNan;
        this.lenient = lenient;
    }

    public PythonJson ensureAscii(boolean on) {
        return new PythonJson(on, indent, itemSeparator, keySeparator, sortKeys, allowNan, lenient);
    }

    /** @param text null for one line, otherwise the text repeated per level (Python's {@code indent=n} is n spaces) */
    public PythonJson indent(String text) {
        return new PythonJson(ensureAscii, text, itemSeparator, keySeparator, sortKeys, allowNan, lenient);
    }

    /** Python's {@code separators=(item, key)}; a null one keeps Python's default for it. */
    public PythonJson separators(String item, String key) {
        return new PythonJson(ensureAscii, indent, item, key, sortKeys, allowNan, lenient);
    }

    public PythonJson sortKeys(boolean on) {
        return new PythonJson(ensureAscii, indent, itemSeparator, keySeparator, on, allowNan, lenient);
    }

    /** With {@code false}, a NaN or infinite float is an {@link OutOfRange}, as Python's {@code allow_nan=False}. */
    public PythonJson allowNan(boolean on) {
        return new PythonJson(ensureAscii, indent, itemSeparator, keySeparator, sortKeys, on, lenient);
    }

    /** Values as a template holds them: see the class comment. */
    public PythonJson lenient() {
        return new PythonJson(ensureAscii, indent, itemSeparator, keySeparator, sortKeys, allowNan, true);
    }

    /** The JSON text of {@code value}; recursive, so nesting is bounded by whoever built the value. */
    public String dumps(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, 0);
        return out.toString();
    }

    /**
     * The length of {@link #dumps} of a JSON-shaped value on one line (an indent is not counted), without building
     * the text: Weave's payload limit is measured so. Iterative, so deep nesting cannot overflow the stack.
     */
    public long length(Object value) {
        long total = 0;
        Deque<Object> pending = new ArrayDeque<>();
        total += push(pending, value);
        while (!pending.isEmpty()) {
            switch (pending.pop()) {
                case Map<?, ?> map -> {
                    total += 2 + (long) items().length() * Math.max(0, map.size() - 1);
                    for (Map.Entry<?, ?> entry : map.entrySet()) {
                        total += quotedLength(key(entry.getKey()), ensureAscii) + keys().length()
                                + push(pending, entry.getValue());
                    }
                }
                case List<?> list -> {
                    total += 2 + (long) items().length() * Math.max(0, list.size() - 1);
                    for (Object item : list) {
                        total += push(pending, item);
                    }
                }
                case String s -> total += quotedLength(s, ensureAscii);
                case Boolean b -> total += b ? 4 : 5;
                case Number n -> total += number(n).length();
                case Object other -> total += notJson(other);
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

    private String items() {
        return itemSeparator != null ? itemSeparator : indent == null ? ", " : ",";
    }

    private String keys() {
        return keySeparator != null ? keySeparator : ": ";
    }

    private void write(Object value, StringBuilder out, int level) {
        switch (value) {
            case null -> out.append("null");
            case Boolean b -> out.append(b ? "true" : "false");
            case Number n -> out.append(number(n));
            case String s -> appendQuoted(s, ensureAscii, out);
            case Map<?, ?> map -> object(map, out, level);
            case List<?> list -> array(list, out, level);
            case Iterable<?> items when lenient -> {
                List<Object> list = new ArrayList<>();
                items.forEach(list::add);
                array(list, out, level);
            }
            case Object array when lenient && array.getClass().isArray() ->
                array(IntStream.range(0, Array.getLength(array)).mapToObj(i -> Array.get(array, i))
                        .toList(), out, level);
            case Object other when lenient -> appendQuoted(other.toString(), ensureAscii, out);
            case Object other -> notJson(other);
        }
    }

    private String number(Number n) {
        String text = PythonNumbers.repr(n);
        if (!allowNan && (text.equals("NaN") || text.endsWith("Infinity"))) {
            throw new OutOfRange(n);
        }
        return text;
    }

    private void array(List<?> list, StringBuilder out, int level) {
        if (list.isEmpty()) {
            out.append("[]");
            return;
        }
        out.append('[');
        for (int i = 0; i < list.size(); i++) {
            separate(i, out, level + 1);
            write(list.get(i), out, level + 1);
        }
        newline(out, level);
        out.append(']');
    }

    private void object(Map<?, ?> map, StringBuilder out, int level) {
        if (map.isEmpty()) {
            out.append("{}");
            return;
        }
        List<Member> members = new ArrayList<>(map.size());
        map.forEach((k, v) -> members.add(new Member(key(k), v)));
        if (sortKeys) {
            // Python compares str by code point; String.compareTo would compare UTF-16 units
            members.sort(Comparator.comparing(m -> m.key().codePoints().toArray(), Arrays::compare));
        }
        out.append('{');
        for (int i = 0; i < members.size(); i++) {
            separate(i, out, level + 1);
            appendQuoted(members.get(i).key(), ensureAscii, out);
            out.append(keys());
            write(members.get(i).value(), out, level + 1);
        }
        newline(out, level);
        out.append('}');
    }

    /** A key: strict, a string; lenient, made one as Python makes {@code True}, {@code None} and floats keys. */
    private String key(Object k) {
        if (k instanceof String s) {
            return s;
        }
        if (!lenient) {
            throw new IllegalArgumentException("JSON object keys must be strings, got " + k);
        }
        return switch (k) {
            case null -> "null";
            case Boolean b -> b ? "true" : "false";
            case Number n -> PythonNumbers.repr(n);
            default -> k.toString();
        };
    }

    private static long notJson(Object value) {
        throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
    }

    private void separate(int index, StringBuilder out, int level) {
        if (index > 0) {
            out.append(items());
        }
        newline(out, level);
    }

    private void newline(StringBuilder out, int level) {
        if (indent != null) {
            out.append('\n').append(indent.repeat(level));
        }
    }

    /**
     * Appends {@code s} as a quoted JSON string: quote, backslash and the named controls get their two-character
     * escapes; other controls, and with {@code ensureAscii} every char outside space..~, get a six-character escape
     * (backslash, u, four lower-case hex digits); a supplementary character becomes its two escaped surrogates.
     */
    public static void appendQuoted(String s, boolean ensureAscii, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || (ensureAscii && c > 0x7e)) {
                        String hex = Integer.toHexString(c);
                        out.append("\\u").append("0".repeat(4 - hex.length())).append(hex);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** The length {@link #appendQuoted} would append. */
    private static long quotedLength(String s, boolean ensureAscii) {
        long length = 2;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f') {
                length += 2;
            } else if (c < 0x20 || (ensureAscii && c > 0x7e)) {
                length += 6;
            } else {
                length += 1;
            }
        }
        return length;
    }

    private record Member(String key, Object value) {
    }
}
