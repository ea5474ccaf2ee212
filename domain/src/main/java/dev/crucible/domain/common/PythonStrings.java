package dev.crucible.domain.common;

/**
 * Strings exactly as Python writes them: JSON literals as {@code json.dumps} does, and {@code repr}, as vLLM's
 * f-strings print them. Locale-independent; stateless.
 */
public final class PythonStrings {

    private PythonStrings() {
    }

    /** Python's {@code repr} of a string: single quotes unless the text holds a single quote and no double quote. */
    public static String repr(String s) {
        char quote = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
        StringBuilder out = new StringBuilder().append(quote);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c == quote) {
                        out.append('\\').append(c);
                    } else if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append(quote).toString();
    }

    /**
     * Appends {@code s} as a quoted JSON string: quote, backslash and the named controls get their two-character
     * escapes; other controls, and with {@code ensureAscii} every char outside space..~, get a six-character escape
     * (backslash, u, four lower-case hex digits); a supplementary character becomes its two escaped surrogates, as
     * in Python.
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
}
