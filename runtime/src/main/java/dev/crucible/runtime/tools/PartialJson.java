package dev.crucible.runtime.tools;

import dev.crucible.domain.common.PythonNumbers;
import dev.crucible.domain.common.PythonStrings;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * JSON as Python's {@code json} module reads and writes it, for text that may still be growing. {@link #parse} reads
 * as far as the text goes and returns a tree whose last value may be unfinished; {@link #loads} is Python's
 * {@code json.loads} (surrounding whitespace allowed; {@code NaN} and {@code Infinity} accepted; raw control
 * characters inside strings refused); {@link #dumps} is {@code json.dumps} with its default separators. An unfinished
 * tree renders as a prefix of what the finished value will render as, which is what streamed tool-call arguments
 * need. Stateless.
 */
final class PartialJson {

    /** A parsed value; {@code complete} is false for the unfinished last value of a growing text. */
    sealed interface Node permits Obj, Arr, Str, Scalar {
        boolean complete();
    }

    /** An object; its last member may be unfinished (key open, no colon yet, or value unfinished or absent). */
    record Obj(List<Member> members, boolean complete) implements Node {
        Optional<Node> get(String key) {
            Node found = null;
            for (Member m : members) {
                if (m.key().complete() && m.key().value().equals(key) && m.value() != null) {
                    found = m.value(); // Python keeps the last duplicate
                }
            }
            return Optional.ofNullable(found);
        }
    }

    /** A member: the key, whether its colon was read, and its value (null before the value starts). */
    record Member(Str key, boolean colon, Node value) {
    }

    record Arr(List<Node> items, boolean complete) implements Node {
    }

    record Str(String value, boolean complete) implements Node {
    }

    /** A finished number, boolean or null ({@code value} null). */
    record Scalar(Object value) implements Node {
        @Override
        public boolean complete() {
            return true;
        }
    }

    /** What {@link #parse} read: the tree (empty when no value started), where it stopped, and whether text was bad. */
    record Parsed(Optional<Node> node, int end, boolean malformed) {
    }

    private final String text;
    private int pos;
    private boolean malformed;

    private PartialJson(String text, int start) {
        this.text = text;
        this.pos = start;
    }

    /** Reads one value from {@code start}, as far as {@code text} goes. */
    static Parsed parse(String text, int start) {
        PartialJson p = new PartialJson(text, start);
        p.skipSpace();
        Node node = p.atEnd() ? null : p.value();
        return new Parsed(Optional.ofNullable(node), p.pos, p.malformed);
    }

    /** Boxes a possibly-null value so that JSON {@code null} survives {@link Optional}. */
    record Holder(Object value) {
    }

    /** Python's {@code json.loads}: the value, or empty when the text is not exactly one JSON value. */
    static Optional<Holder> loads(String text) {
        PartialJson p = new PartialJson(text, 0);
        p.skipSpace();
        Node node = p.atEnd() ? null : p.value();
        p.skipSpace();
        if (node == null || p.malformed || !node.complete() || !p.atEnd()) {
            return Optional.empty();
        }
        return Optional.of(new Holder(value(node)));
    }

    /** The Java value of a complete node: maps, lists, strings, Long/BigInteger/Double, Boolean, null. */
    static Object value(Node node) {
        return switch (node) {
            case Obj o -> {
                Map<String, Object> map = new LinkedHashMap<>();
                o.members().forEach(m -> map.put(m.key().value(), value(m.value())));
                yield map;
            }
            case Arr a -> a.items().stream().map(PartialJson::value).toList();
            case Str s -> s.value();
            case Scalar s -> s.value();
        };
    }

    /** Python's {@code json.dumps(value, ensure_ascii=…)} of a value built by {@link #value}. */
    static String dumps(Object value, boolean ensureAscii) {
        StringBuilder out = new StringBuilder();
        dump(value, ensureAscii, out);
        return out.toString();
    }

    private static void dump(Object value, boolean ascii, StringBuilder out) {
        switch (value) {
            case null -> out.append("null");
            case Boolean b -> out.append(b ? "true" : "false");
            case Double d when d.isNaN() -> out.append("NaN");
            case Double d when d.isInfinite() -> out.append(d > 0 ? "Infinity" : "-Infinity");
            case Number n -> out.append(PythonNumbers.repr(n));
            case String s -> PythonStrings.appendQuoted(s, ascii, out);
            case Map<?, ?> map -> {
                out.append('{');
                int i = 0;
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    out.append(i++ > 0 ? ", " : "");
                    PythonStrings.appendQuoted(String.valueOf(e.getKey()), ascii, out);
                    out.append(": ");
                    dump(e.getValue(), ascii, out);
                }
                out.append('}');
            }
            case List<?> list -> {
                out.append('[');
                for (int i = 0; i < list.size(); i++) {
                    out.append(i > 0 ? ", " : "");
                    dump(list.get(i), ascii, out);
                }
                out.append(']');
            }
            default -> throw new IllegalArgumentException("not a JSON value: " + value.getClass());
        }
    }

    /**
     * How {@code node} renders so far: for a complete node exactly {@link #dumps} of its value; for an unfinished one
     * a prefix of what it will render as once finished (open strings and containers stay open, a key waits for its
     * colon before {@code ": "} is written).
     */
    static String render(Node node, boolean ascii) {
        StringBuilder out = new StringBuilder();
        render(node, ascii, out);
        return out.toString();
    }

    private static void render(Node node, boolean ascii, StringBuilder out) {
        switch (node) {
            case Scalar s -> dump(s.value(), ascii, out);
            case Str s -> {
                PythonStrings.appendQuoted(s.value(), ascii, out);
                if (!s.complete()) {
                    out.setLength(out.length() - 1);
                }
            }
            case Arr a -> {
                out.append('[');
                for (int i = 0; i < a.items().size(); i++) {
                    out.append(i > 0 ? ", " : "");
                    render(a.items().get(i), ascii, out);
                }
                if (a.complete()) {
                    out.append(']');
                }
            }
            case Obj o -> {
                out.append('{');
                for (int i = 0; i < o.members().size(); i++) {
                    Member m = o.members().get(i);
                    out.append(i > 0 ? ", " : "");
                    render(m.key(), ascii, out);
                    if (!m.colon()) {
                        return;
                    }
                    out.append(": ");
                    if (m.value() == null) {
                        return;
                    }
                    render(m.value(), ascii, out);
                }
                if (o.complete()) {
                    out.append('}');
                }
            }
        }
    }

    private boolean atEnd() {
        return pos >= text.length();
    }

    private void skipSpace() {
        while (!atEnd() && " \t\n\r".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
    }

    /** One value starting at pos (not at end); null when the text is malformed here or ends inside a scalar. */
    private Node value() {
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            default -> scalar();
        };
    }

    private Node object() {
        pos++;
        List<Member> members = new ArrayList<>();
        while (true) {
            skipSpace();
            if (atEnd()) {
                return new Obj(members, false);
            }
            if (text.charAt(pos) == '}' && members.isEmpty()) {
                pos++;
                return new Obj(members, true);
            }
            if (!members.isEmpty()) {
                if (text.charAt(pos) == '}') {
                    pos++;
                    return new Obj(members, true);
                }
                if (text.charAt(pos) != ',') {
                    return bad(new Obj(members, false));
                }
                pos++;
                skipSpace();
                if (atEnd()) {
                    return new Obj(members, false);
                }
            }
            if (text.charAt(pos) != '"') {
                return bad(new Obj(members, false));
            }
            Str key = string();
            if (key == null) {
                return new Obj(members, false);
            }
            if (!key.complete()) {
                members.add(new Member(key, false, null));
                return new Obj(members, false);
            }
            skipSpace();
            if (atEnd()) {
                members.add(new Member(key, false, null));
                return new Obj(members, false);
            }
            if (text.charAt(pos) != ':') {
                return bad(new Obj(members, false));
            }
            pos++;
            skipSpace();
            if (atEnd()) {
                members.add(new Member(key, true, null));
                return new Obj(members, false);
            }
            Node value = value();
            members.add(new Member(key, true, value));
            if (value == null || !value.complete()) {
                return new Obj(members, false);
            }
        }
    }

    private Node array() {
        pos++;
        List<Node> items = new ArrayList<>();
        while (true) {
            skipSpace();
            if (atEnd()) {
                return new Arr(items, false);
            }
            if (text.charAt(pos) == ']') {
                pos++;
                return new Arr(items, true);
            }
            if (!items.isEmpty()) {
                if (text.charAt(pos) != ',') {
                    return bad(new Arr(items, false));
                }
                pos++;
                skipSpace();
                if (atEnd()) {
                    return new Arr(items, false);
                }
            }
            Node item = value();
            if (item == null) {
                return new Arr(items, false);
            }
            items.add(item);
            if (!item.complete()) {
                return new Arr(items, false);
            }
        }
    }

    /** A string at pos; stops before an unfinished escape at the end of the text. */
    private Str string() {
        pos++;
        StringBuilder s = new StringBuilder();
        while (!atEnd()) {
            char c = text.charAt(pos);
            if (c == '"') {
                pos++;
                return new Str(s.toString(), true);
            }
            if (c < 0x20) {
                return bad(new Str(s.toString(), false));
            }
            if (c != '\\') {
                s.append(c);
                pos++;
                continue;
            }
            if (pos + 1 >= text.length()) {
                return new Str(s.toString(), false);
            }
            char e = text.charAt(pos + 1);
            switch (e) {
                case '"', '\\', '/' -> s.append(e);
                case 'b' -> s.append('\b');
                case 'f' -> s.append('\f');
                case 'n' -> s.append('\n');
                case 'r' -> s.append('\r');
                case 't' -> s.append('\t');
                case 'u' -> {
                    if (pos + 6 > text.length()) {
                        return new Str(s.toString(), false);
                    }
                    try {
                        s.append((char) Integer.parseInt(text.substring(pos + 2, pos + 6), 16));
                    } catch (NumberFormatException ex) {
                        return bad(new Str(s.toString(), false));
                    }
                    pos += 4;
                }
                default -> {
                    return bad(new Str(s.toString(), false));
                }
            }
            pos += 2;
        }
        return new Str(s.toString(), false);
    }

    private static final List<String> LITERALS = List.of("true", "false", "null", "NaN", "Infinity", "-Infinity");

    /** A number or literal; null when the text ends inside it (it may go on) or it is malformed. */
    private Node scalar() {
        for (String literal : LITERALS) {
            String rest = text.substring(pos, Math.min(text.length(), pos + literal.length()));
            if (literal.startsWith(rest) && rest.length() < literal.length() && pos + rest.length() == text.length()) {
                return null;
            }
            if (rest.equals(literal)) {
                pos += literal.length();
                return new Scalar(switch (literal) {
                    case "true" -> Boolean.TRUE;
                    case "false" -> Boolean.FALSE;
                    case "null" -> null;
                    case "NaN" -> Double.NaN;
                    case "Infinity" -> Double.POSITIVE_INFINITY;
                    default -> Double.NEGATIVE_INFINITY;
                });
            }
        }
        int start = pos;
        int end = pos;
        while (end < text.length() && "+-0123456789.eE".indexOf(text.charAt(end)) >= 0) {
            end++;
        }
        if (end == text.length()) {
            return null; // the number may go on
        }
        String number = text.substring(start, end);
        if (!number.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
            malformed = true;
            return null;
        }
        pos = end;
        if (number.contains(".") || number.contains("e") || number.contains("E")) {
            return new Scalar(Double.parseDouble(number));
        }
        BigInteger big = new BigInteger(number);
        return new Scalar(big.bitLength() < 64 ? (Object) big.longValue() : big);
    }

    private <T> T bad(T partial) {
        malformed = true;
        return partial;
    }
}
