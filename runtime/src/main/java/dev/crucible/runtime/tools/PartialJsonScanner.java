package dev.crucible.runtime.tools;

import dev.crucible.runtime.tools.PartialJson.Arr;
import dev.crucible.runtime.tools.PartialJson.Member;
import dev.crucible.runtime.tools.PartialJson.Node;
import dev.crucible.runtime.tools.PartialJson.Obj;
import dev.crucible.runtime.tools.PartialJson.Scalar;
import dev.crucible.runtime.tools.PartialJson.Str;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The cursor {@link PartialJson} reads with: one value from a position, as far as the text goes, noting whether the
 * text was malformed. One scanner per read; not thread-safe.
 */
final class PartialJsonScanner {

    private final String text;
    private int pos;
    private boolean malformed;

    PartialJsonScanner(String text, int start) {
        this.text = text;
        this.pos = start;
    }

    /** Where reading stopped. */
    int pos() {
        return pos;
    }

    /** Whether the text read so far is not JSON (as opposed to unfinished JSON). */
    boolean malformed() {
        return malformed;
    }

    boolean atEnd() {
        return pos >= text.length();
    }

    void skipSpace() {
        while (!atEnd() && " \t\n\r".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
    }

    /** One value starting at pos (not at end); null when the text is malformed here or ends inside a scalar. */
    Node value() {
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            default -> scalar();
        };
    }

    private Node object() {
        List<Member> members = new ArrayList<>();
        boolean complete = elements('}', () -> member(members));
        return new Obj(members, complete);
    }

    private Node array() {
        List<Node> items = new ArrayList<>();
        boolean complete = elements(']', () -> {
            Node item = value();
            if (item != null) {
                items.add(item);
            }
            return item != null && item.complete();
        });
        return new Arr(items, complete);
    }

    /**
     * Reads a container from its opening character, each element with {@code element}, which says whether it read the
     * element whole: true when {@code close} ends the container, false when the text ends first or is malformed.
     */
    private boolean elements(char close, BooleanSupplier element) {
        pos++;
        for (boolean first = true; ; first = false) {
            skipSpace();
            if (atEnd()) {
                return false;
            }
            if (text.charAt(pos) == close) {
                pos++;
                return true;
            }
            if (!first && !pastComma() || !element.getAsBoolean()) {
                return false;
            }
        }
    }

    /** One member at pos, added to {@code members} as far as the text goes; whether it was read whole. */
    private boolean member(List<Member> members) {
        if (text.charAt(pos) != '"') {
            return bad(false);
        }
        Str key = string();
        if (key == null) {
            return false;
        }
        if (!key.complete()) {
            members.add(new Member(key, false, null));
            return false;
        }
        skipSpace();
        if (atEnd()) {
            members.add(new Member(key, false, null));
            return false;
        }
        if (text.charAt(pos) != ':') {
            return bad(false);
        }
        pos++;
        skipSpace();
        if (atEnd()) {
            members.add(new Member(key, true, null));
            return false;
        }
        Node value = value();
        members.add(new Member(key, true, value));
        return value != null && value.complete();
    }

    /**
     * Moves past the comma before a container's next element and the space after it: false when the text ends there,
     * or is malformed (no comma).
     */
    private boolean pastComma() {
        if (text.charAt(pos) != ',') {
            malformed = true;
            return false;
        }
        pos++;
        skipSpace();
        return !atEnd();
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
