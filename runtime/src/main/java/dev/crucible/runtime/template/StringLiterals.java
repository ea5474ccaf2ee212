package dev.crucible.runtime.template;

/**
 * Rewrites a jinja2 string literal into one Jinjava reads as the same string. jinja2 decodes literals with Python's
 * {@code unicode-escape} ({@code \x41}, {@code \u00e9}, {@code \N{BULLET}}, octal, {@code \v}, and an unknown escape
 * such as {@code \d} kept as written); Jinjava knows only {@code \n \t \r \b \f \\ \' \"} and fails on the rest.
 * Stateless.
 */
final class StringLiterals {

    private StringLiterals() {
    }

    /** The Jinjava literal, with the same quotes, for a jinja2 literal given with its quotes. */
    static String toJinjava(String literal) {
        char quote = literal.charAt(0);
        String value = decode(literal.substring(1, literal.length() - 1));
        StringBuilder out = new StringBuilder().append(quote);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' || c == quote) {
                out.append('\\');
            }
            out.append(c);
        }
        return out.append(quote).toString();
    }

    /** Python's unicode-escape decoding of a literal's body. */
    static String decode(String body) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < body.length()) {
            char c = body.charAt(i++);
            if (c != '\\' || i >= body.length()) {
                out.append(c);
                continue;
            }
            char e = body.charAt(i++);
            switch (e) {
                case '\n' -> { }
                case '\\', '\'', '"' -> out.append(e);
                case 'a' -> out.append('\u0007');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'v' -> out.append('\u000b');
                case 'x', 'u', 'U' -> {
                    int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
                    out.appendCodePoint(hex(body, i, digits));
                    i += digits;
                }
                case 'N' -> {
                    int end = body.indexOf('}', i);
                    if (end < 0 || body.charAt(i) != '{') {
                        throw new IllegalArgumentException("malformed \\N{...} escape in a string literal");
                    }
                    out.appendCodePoint(Character.codePointOf(body.substring(i + 1, end)));
                    i = end + 1;
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        int end = i - 1;
                        while (end < body.length() && end < i + 2 && body.charAt(end) >= '0'
                                && body.charAt(end) <= '7') {
                            end++;
                        }
                        out.append((char) Integer.parseInt(body.substring(i - 1, end), 8));
                        i = end;
                    } else {
                        out.append('\\').append(e);
                    }
                }
            }
        }
        return out.toString();
    }

    private static int hex(String body, int from, int digits) {
        if (from + digits > body.length()) {
            throw new IllegalArgumentException("truncated \\x, \\u or \\U escape in a string literal");
        }
        return Integer.parseInt(body.substring(from, from + digits), 16);
    }
}
