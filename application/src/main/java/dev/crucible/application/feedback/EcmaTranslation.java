package dev.crucible.application.feedback;

import dev.crucible.kernel.refusal.Excerpt;

/**
 * Rewrites an ECMA-262 pattern in RE2/J's syntax, one pass by recursive descent, and measures its size after
 * expanding repeats as it goes: an atom counts one, a group its inside, {@code x{n,m}} {@code max(n, m)} times
 * {@code x}, so nested counts multiply. The walk stops as soon as the size passes the bound, so a hostile pattern
 * costs its own length at most. Syntax errors the walk does not need to see are left for RE2/J to report.
 */
final class EcmaTranslation {

    /** Repeat counts above this are refused by RE2/J anyway; the cap keeps the arithmetic far from overflow. */
    private static final int MAX_COUNT = 100_000;

    /** ECMA-262's {@code .}: any character but a LineTerminator. */
    private static final String DOT = "[^\\n\\r\\x{2028}\\x{2029}]";

    private final String src;
    private final long maxSize;
    private final StringBuilder out = new StringBuilder();
    private int pos;

    private EcmaTranslation(String src, long maxSize) {
        this.src = src;
        this.maxSize = maxSize;
    }

    /** The pattern in RE2/J's syntax, and its size after expanding repeats. */
    record Result(String re2, long size) {
    }

    /**
     * {@code source} rewritten for RE2/J.
     *
     * @throws EcmaPattern.Unsupported when it uses what RE2/J cannot run, or is larger than {@code maxSize}
     */
    static Result translate(String source, long maxSize) {
        EcmaTranslation t = new EcmaTranslation(source, maxSize);
        long size = t.alternation();
        while (t.pos < source.length()) {
            // an unbalanced ')': copied for RE2/J to refuse, then the rest
            t.out.append(source.charAt(t.pos++));
            size = t.bounded(size + t.alternation());
        }
        return new Result(t.out.toString(), size);
    }

    private long alternation() {
        long size = sequence();
        while (pos < src.length() && src.charAt(pos) == '|') {
            out.append('|');
            pos++;
            size = bounded(size + 1 + sequence());
        }
        return size;
    }

    private long sequence() {
        long size = 0;
        while (pos < src.length() && src.charAt(pos) != '|' && src.charAt(pos) != ')') {
            size = bounded(size + quantified());
        }
        return size;
    }

    private long quantified() {
        long size = atom();
        while (pos < src.length()) {
            char c = src.charAt(pos);
            if (c == '*' || c == '+' || c == '?') {
                out.append(c);
                pos++;
                size = bounded(size + 1);
            } else if (c == '{' && countEnd(pos) > 0) {
                int end = countEnd(pos);
                String counts = src.substring(pos + 1, end);
                out.append(src, pos, end + 1);
                pos = end + 1;
                size = bounded(size * largestCount(counts) + 1);
            } else {
                break;
            }
            if (pos < src.length() && src.charAt(pos) == '?') {
                out.append('?');
                pos++;
            }
        }
        return size;
    }

    /** The index of the '}' closing a quantifier {n}, {n,} or {n,m} that starts at {@code at}, or -1. */
    private int countEnd(int at) {
        int i = at + 1;
        int digits = 0;
        while (i < src.length() && Character.isDigit(src.charAt(i)) && src.charAt(i) < 128) {
            i++;
            digits++;
        }
        if (digits == 0) {
            return -1;
        }
        if (i < src.length() && src.charAt(i) == ',') {
            i++;
            while (i < src.length() && src.charAt(i) >= '0' && src.charAt(i) <= '9') {
                i++;
            }
        }
        return i < src.length() && src.charAt(i) == '}' ? i : -1;
    }

    /** The most times a quantifier's counts ({@code n}, {@code n,} or {@code n,m}) repeat their atom. */
    private static long largestCount(String counts) {
        int comma = counts.indexOf(',');
        long n = count(comma < 0 ? counts : counts.substring(0, comma));
        if (comma < 0) {
            return n;
        }
        String upper = counts.substring(comma + 1);
        return upper.isEmpty() ? n + 1 : Math.max(n, count(upper));
    }

    private static long count(String digits) {
        return digits.length() > 6 ? MAX_COUNT : Math.min(Long.parseLong(digits), MAX_COUNT);
    }

    private long atom() {
        char c = src.charAt(pos);
        switch (c) {
            case '(' -> {
                return group();
            }
            case '[' -> {
                characterClass();
                return 1;
            }
            case '\\' -> {
                escape(false);
                return 1;
            }
            case '.' -> {
                out.append(DOT);
                pos++;
                return 1;
            }
            default -> {
                out.append(c);
                pos++;
                return 1;
            }
        }
    }

    private long group() {
        if (src.startsWith("(?=", pos) || src.startsWith("(?!", pos) || src.startsWith("(?<=", pos)
                || src.startsWith("(?<!", pos)) {
            throw refused("uses lookaround, which a linear-time matcher cannot run");
        }
        if (src.startsWith("(?:", pos)) {
            out.append("(?:");
            pos += 3;
        } else if (src.startsWith("(?<", pos)) {
            int end = src.indexOf('>', pos);
            if (end < 0) {
                throw refused("has an unterminated group name");
            }
            out.append(src, pos, end + 1);
            pos = end + 1;
        } else if (src.startsWith("(?", pos)) {
            throw refused("has a group '(?' that ECMA-262 does not define");
        } else {
            out.append('(');
            pos++;
        }
        long size = alternation();
        if (pos < src.length()) {
            out.append(')');
            pos++;
        }
        return bounded(size + 1);
    }

    private void characterClass() {
        out.append('[');
        pos++;
        if (src.startsWith("^]", pos)) {
            // ECMA's [^] is any character
            out.setLength(out.length() - 1);
            out.append("(?s:.)");
            pos += 2;
            return;
        }
        if (pos < src.length() && src.charAt(pos) == ']') {
            // ECMA's [] matches nothing
            out.setLength(out.length() - 1);
            out.append("[^\\x00-\\x{10FFFF}]");
            pos++;
            return;
        }
        if (pos < src.length() && src.charAt(pos) == '^') {
            out.append('^');
            pos++;
        }
        while (pos < src.length() && src.charAt(pos) != ']') {
            char c = src.charAt(pos);
            if (c == '\\') {
                escape(true);
            } else if (c == '[') {
                out.append("\\[");
                pos++;
            } else {
                out.append(c);
                pos++;
            }
        }
        if (pos < src.length()) {
            out.append(']');
            pos++;
        }
    }

    private void escape(boolean inClass) {
        if (pos + 1 >= src.length()) {
            throw refused("ends with a lone backslash");
        }
        char c = src.charAt(pos + 1);
        pos += 2;
        switch (c) {
            case 'd', 'D', 'w', 'W', 't', 'n', 'r', 'f', 'v' -> out.append('\\').append(c);
            case 'b' -> out.append(inClass ? "\\x08" : "\\b");
            case 'B' -> {
                if (inClass) {
                    throw refused("has \\B inside a character class, which ECMA-262 does not allow");
                }
                out.append("\\B");
            }
            case 's' -> out.append(inClass ? EcmaPattern.WHITE_SPACE : "[" + EcmaPattern.WHITE_SPACE + "]");
            // inside a class RE2/J's \S (not [\t\n\f\r ]) stands for ECMA's: an intersection is not expressible there
            case 'S' -> out.append(inClass ? "\\S" : "[^" + EcmaPattern.WHITE_SPACE + "]");
            case 'p', 'P' -> out.append('\\').append(c);
            case 'x' -> {
                if (pos + 2 > src.length() || !src.substring(pos, pos + 2).chars().allMatch(EcmaTranslation::isHex)) {
                    throw refused("has a malformed \\x escape");
                }
                out.append("\\x").append(src, pos, pos + 2);
                pos += 2;
            }
            case 'u' -> unicodeEscape();
            case 'c' -> controlEscape();
            case '0' -> {
                if (pos < src.length() && Character.isDigit(src.charAt(pos))) {
                    throw refused("has an octal escape, which ECMA-262 does not allow in patterns");
                }
                out.append("\\x00");
            }
            case 'k' -> throw refused("uses a named backreference, which a linear-time matcher cannot run");
            default -> {
                if (c >= '1' && c <= '9') {
                    throw refused("uses a backreference, which a linear-time matcher cannot run");
                }
                if (Character.isLetterOrDigit(c)) {
                    throw refused("has the escape \\" + c + ", which ECMA-262 does not define");
                }
                out.append('\\').append(c);
            }
        }
    }

    private void unicodeEscape() {
        if (pos < src.length() && src.charAt(pos) == '{') {
            int end = src.indexOf('}', pos);
            if (end < 0 || end - pos > 7) {
                throw refused("has a malformed \\u{...} escape");
            }
            out.append("\\x{").append(src, pos + 1, end).append('}');
            pos = end + 1;
            return;
        }
        if (pos + 4 > src.length() || !src.substring(pos, pos + 4).chars().allMatch(EcmaTranslation::isHex)) {
            throw refused("has a malformed \\u escape");
        }
        out.append("\\x{").append(src, pos, pos + 4).append('}');
        pos += 4;
    }

    private void controlEscape() {
        if (pos >= src.length() || !Character.isLetter(src.charAt(pos)) || src.charAt(pos) > 127) {
            throw refused("has a malformed \\c escape");
        }
        out.append(String.format("\\x{%x}", src.charAt(pos) % 32));
        pos++;
    }

    private static boolean isHex(int c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    private long bounded(long size) {
        if (size > maxSize) {
            throw new EcmaPattern.Unsupported("pattern " + Excerpt.of(src) + " is larger than " + maxSize
                    + " after expanding its repeats (" + SpecLimits.MAX_PATTERN_SIZE_SETTING + ")");
        }
        return size;
    }

    private EcmaPattern.Unsupported refused(String why) {
        return new EcmaPattern.Unsupported("pattern " + Excerpt.of(src) + " " + why);
    }
}
