package dev.crucible.runtime.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Python's {@code str} methods with Python's semantics where Java's differ: whitespace is {@code str.isspace}
 * (no-break spaces included), {@code split} keeps trailing empty strings and never takes a regex, {@code strip}
 * takes a set of characters. Stateless.
 */
final class PythonStrMethods {

    private PythonStrMethods() {
    }

    /** Python's {@code str.isspace} for one code point. */
    static boolean isSpace(int cp) {
        return Character.isWhitespace(cp) || Character.isSpaceChar(cp) || cp == 0x85;
    }

    /** {@code strip}, {@code lstrip} or {@code rstrip}: {@code chars} null strips whitespace. */
    static String strip(String s, String chars, boolean left, boolean right) {
        int[] cps = s.codePoints().toArray();
        int from = 0;
        int to = cps.length;
        while (left && from < to && strippable(cps[from], chars)) {
            from++;
        }
        while (right && to > from && strippable(cps[to - 1], chars)) {
            to--;
        }
        return new String(cps, from, to - from);
    }

    private static boolean strippable(int cp, String chars) {
        return chars == null ? isSpace(cp) : chars.codePoints().anyMatch(c -> c == cp);
    }

    /** {@code str.split(sep, maxsplit)}: sep null splits on whitespace runs, dropping empty parts; -1 splits all. */
    static List<String> split(String s, String sep, int maxsplit) {
        if (sep != null && sep.isEmpty()) {
            throw new IllegalArgumentException("empty separator");
        }
        List<String> parts = new ArrayList<>();
        if (sep != null) {
            int start = 0;
            int at;
            while ((maxsplit < 0 || parts.size() < maxsplit) && (at = s.indexOf(sep, start)) >= 0) {
                parts.add(s.substring(start, at));
                start = at + sep.length();
            }
            parts.add(s.substring(start));
            return parts;
        }
        int i = 0;
        int n = s.length();
        while (true) {
            while (i < n && isSpace(s.codePointAt(i))) {
                i += Character.charCount(s.codePointAt(i));
            }
            if (i >= n) {
                return parts;
            }
            if (maxsplit >= 0 && parts.size() == maxsplit) {
                parts.add(s.substring(i));
                return parts;
            }
            int start = i;
            while (i < n && !isSpace(s.codePointAt(i))) {
                i += Character.charCount(s.codePointAt(i));
            }
            parts.add(s.substring(start, i));
        }
    }

    /** {@code str.splitlines()}: splits on Python's line boundaries, dropping them. */
    static List<String> splitlines(String s) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ("\n\r\u000b\u000c\u001c\u001d\u001e\u0085\u2028\u2029".indexOf(c) >= 0) {
                lines.add(s.substring(start, i));
                if (c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        if (start < s.length()) {
            lines.add(s.substring(start));
        }
        return lines;
    }

    /** {@code str.title()}: each run of cased letters starts upper case and goes on lower case. */
    static String title(String s) {
        StringBuilder out = new StringBuilder();
        boolean previousCased = false;
        for (int cp : s.codePoints().toArray()) {
            String c = new String(Character.toChars(cp));
            out.append(previousCased ? c.toLowerCase(Locale.ROOT)
                    : new String(Character.toChars(Character.toTitleCase(cp))));
            previousCased = Character.isLowerCase(cp) || Character.isUpperCase(cp) || Character.isTitleCase(cp);
        }
        return out.toString();
    }

    /** {@code str.capitalize()}: the first character title case, the rest lower case. */
    static String capitalize(String s) {
        if (s.isEmpty()) {
            return s;
        }
        int first = s.codePointAt(0);
        return new String(Character.toChars(Character.toTitleCase(first)))
                + s.substring(Character.charCount(first)).toLowerCase(Locale.ROOT);
    }

    /** {@code str.count(sub)}: non-overlapping occurrences; the empty string occurs between every code point. */
    static int count(String s, String sub) {
        if (sub.isEmpty()) {
            return s.codePointCount(0, s.length()) + 1;
        }
        int n = 0;
        for (int at = s.indexOf(sub); at >= 0; at = s.indexOf(sub, at + sub.length())) {
            n++;
        }
        return n;
    }

    /** The length {@link #replace} gives, found without building it, so a bound can refuse it first. */
    static long replacedLength(String s, String old, String replacement, int count) {
        if (old == null || replacement == null) {
            return s.length();
        }
        long n = old.isEmpty() ? s.codePointCount(0, s.length()) + 1L : count(s, old);
        long done = count < 0 ? n : Math.min(n, count);
        return s.length() + done * (replacement.length() - (long) old.length());
    }

    /** {@code str.replace(old, new, count)}: count -1 replaces all. */
    static String replace(String s, String old, String replacement, int count) {
        if (count < 0) {
            return s.replace(old, replacement);
        }
        StringBuilder out = new StringBuilder();
        int start = 0;
        int at;
        for (int done = 0; done < count && (at = s.indexOf(old, start)) >= 0 && !old.isEmpty(); done++) {
            out.append(s, start, at).append(replacement);
            start = at + old.length();
        }
        return out.append(s.substring(start)).toString();
    }

    /**
     * {@code str.format(*args)} for automatic ({@code {}}) and numbered ({@code {0}}) fields, each replaced by
     * Python's {@code str()} of its argument, and {@code {{ }}} escapes; a named field, an attribute or index in a
     * field, a conversion or a format spec is refused, since Crucible does not emulate them. {@code grown} hears the
     * length made so far after each field, so a bound can stop it.
     */
    static String format(String template, Object[] args, java.util.function.LongConsumer grown) {
        StringBuilder out = new StringBuilder();
        int automatic = 0;
        boolean numbered = false;
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            if ((c == '{' || c == '}') && i + 1 < template.length() && template.charAt(i + 1) == c) {
                out.append(c);
                i++;
            } else if (c == '{') {
                int close = template.indexOf('}', i);
                if (close < 0) {
                    throw new IllegalArgumentException("Single '{' encountered in format string");
                }
                String field = template.substring(i + 1, close);
                int index;
                if (field.isEmpty()) {
                    if (numbered) {
                        throw new IllegalArgumentException(
                                "cannot switch from manual field specification to automatic field numbering");
                    }
                    index = automatic++;
                } else if (field.chars().allMatch(Character::isDigit) && field.length() < 10) {
                    if (automatic > 0) {
                        throw new IllegalArgumentException(
                                "cannot switch from automatic field numbering to manual field specification");
                    }
                    numbered = true;
                    index = Integer.parseInt(field);
                } else {
                    throw new IllegalArgumentException("str.format supports only {} and {0} fields in a chat "
                            + "template here, got {" + field + "}");
                }
                if (index >= args.length) {
                    throw new IllegalArgumentException("Replacement index " + index + " out of range for positional "
                            + "args tuple");
                }
                out.append(PythonValues.str(args[index]));
                grown.accept(out.length());
                i = close;
            } else if (c == '}') {
                throw new IllegalArgumentException("Single '}' encountered in format string");
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
