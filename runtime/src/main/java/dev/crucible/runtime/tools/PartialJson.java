package dev.crucible.runtime.tools;

import dev.crucible.kernel.python.PythonJson;
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

    private static final PythonJson UNESCAPED = PythonJson.DEFAULT.ensureAscii(false);

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

    private PartialJson() {
    }

    /** Reads one value from {@code start}, as far as {@code text} goes. */
    static Parsed parse(String text, int start) {
        PartialJsonScanner p = new PartialJsonScanner(text, start);
        p.skipSpace();
        Node node = p.atEnd() ? null : p.value();
        return new Parsed(Optional.ofNullable(node), p.pos(), p.malformed());
    }

    /** Boxes a possibly-null value so that JSON {@code null} survives {@link Optional}. */
    record Holder(Object value) {
    }

    /** Python's {@code json.loads}: the value, or empty when the text is not exactly one JSON value. */
    static Optional<Holder> loads(String text) {
        PartialJsonScanner p = new PartialJsonScanner(text, 0);
        p.skipSpace();
        Node node = p.atEnd() ? null : p.value();
        p.skipSpace();
        if (node == null || p.malformed() || !node.complete() || !p.atEnd()) {
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

    /** Python's {@code json.dumps(value, ensure_ascii=…)}, as vLLM writes tool-call arguments. */
    static PythonJson dumps(boolean ensureAscii) {
        return ensureAscii ? PythonJson.DEFAULT : UNESCAPED;
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
            case Scalar s -> out.append(dumps(ascii).dumps(s.value()));
            case Str s -> {
                PythonJson.appendQuoted(s.value(), ascii, out);
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
}
