package dev.crucible.runtime.template;

import dev.crucible.domain.common.PythonNumbers;
import dev.crucible.domain.common.PythonStrings;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Python's {@code json.dumps(value, ensure_ascii=…, indent=…, separators=…, sort_keys=…)} for JSON-shaped Java values,
 * which is what transformers' {@code tojson} filter is. Maps keep their iteration order unless keys are sorted (by code
 * point, as Python compares strings); numbers are written as Python writes ints and floats. Stateless.
 */
final class PythonJson {

    private final boolean ensureAscii;
    private final String indent;
    private final String itemSeparator;
    private final String keySeparator;
    private final boolean sortKeys;

    /**
     * @param indent null for one line, otherwise the text repeated per level (Python's {@code indent=n} is n spaces)
     * @param itemSeparator null for Python's default: {@code ", "} on one line, {@code ","} with an indent
     * @param keySeparator null for Python's default {@code ": "}
     */
    PythonJson(boolean ensureAscii, String indent, String itemSeparator, String keySeparator, boolean sortKeys) {
        this.ensureAscii = ensureAscii;
        this.indent = indent;
        this.itemSeparator = itemSeparator != null ? itemSeparator : indent == null ? ", " : ",";
        this.keySeparator = keySeparator != null ? keySeparator : ": ";
        this.sortKeys = sortKeys;
    }

    String dumps(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, 0);
        return out.toString();
    }

    private void write(Object value, StringBuilder out, int level) {
        switch (value) {
            case null -> out.append("null");
            case Boolean b -> out.append(b ? "true" : "false");
            case Number n -> out.append(PythonNumbers.repr(n));
            case CharSequence s -> string(s.toString(), out);
            case Character c -> string(c.toString(), out);
            case Map<?, ?> map -> object(map, out, level);
            case Iterable<?> items -> {
                List<Object> list = new ArrayList<>();
                items.forEach(list::add);
                array(list, out, level);
            }
            default -> {
                if (value.getClass().isArray()) {
                    List<Object> list = new ArrayList<>();
                    for (int i = 0; i < Array.getLength(value); i++) {
                        list.add(Array.get(value, i));
                    }
                    array(list, out, level);
                } else {
                    string(value.toString(), out);
                }
            }
        }
    }

    private void array(List<Object> list, StringBuilder out, int level) {
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
        List<Member> members = new ArrayList<>();
        map.forEach((k, v) -> members.add(new Member(key(k), v)));
        if (sortKeys) {
            // Python compares str by code point; String.compareTo would compare UTF-16 units
            members.sort(Comparator.comparing(m -> m.key().codePoints().toArray(), Arrays::compare));
        }
        out.append('{');
        for (int i = 0; i < members.size(); i++) {
            separate(i, out, level + 1);
            string(members.get(i).key(), out);
            out.append(keySeparator);
            write(members.get(i).value(), out, level + 1);
        }
        newline(out, level);
        out.append('}');
    }

    /** Python turns non-string keys into strings: {@code True} is "true", {@code None} "null", floats by repr. */
    private static String key(Object k) {
        return switch (k) {
            case null -> "null";
            case Boolean b -> b ? "true" : "false";
            case Number n -> PythonNumbers.repr(n);
            default -> k.toString();
        };
    }

    private void separate(int index, StringBuilder out, int level) {
        if (index > 0) {
            out.append(itemSeparator);
        }
        newline(out, level);
    }

    private void newline(StringBuilder out, int level) {
        if (indent != null) {
            out.append('\n').append(indent.repeat(level));
        }
    }

    /** Python's encoder: escapes quote, backslash and controls; with ensure_ascii every char outside space..~. */
    private void string(String s, StringBuilder out) {
        PythonStrings.appendQuoted(s, ensureAscii, out);
    }

    private record Member(String key, Object value) {
    }
}
