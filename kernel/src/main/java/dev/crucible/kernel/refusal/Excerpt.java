package dev.crucible.kernel.refusal;

/**
 * How a refusal quotes what the caller sent: a short excerpt with every control character escaped, so that an
 * error message (and the log line that may carry it) never echoes a tenant's megabytes, newlines or terminal codes.
 */
public final class Excerpt {

    /** The most characters of the input a message quotes. */
    public static final int MAX_CHARS = 64;

    private Excerpt() {
    }

    /**
     * {@code input} quoted for a message: at most {@link #MAX_CHARS} of its characters, control and format characters
     * escaped as {@code \n}, {@code \t} or {@code \}{@code uXXXX}, and, when cut, how long the whole was.
     */
    public static String of(String input) {
        return input == null ? "null" : escaped(input, MAX_CHARS, true);
    }

    /**
     * {@code text} as one log line: at most {@code maxChars} of its characters, control and format characters escaped
     * as {@link #of} escapes them (so no text can start a line of its own), and, when cut, how long the whole was.
     */
    public static String line(String text, int maxChars) {
        return text == null ? "null" : escaped(text, maxChars, false);
    }

    private static String escaped(String input, int maxChars, boolean quoted) {
        int end = Math.min(input.length(), maxChars);
        if (end < input.length() && end > 0 && Character.isHighSurrogate(input.charAt(end - 1))) {
            end--;
        }
        StringBuilder out = new StringBuilder(end + 32);
        if (quoted) {
            out.append('\'');
        }
        for (int i = 0; i < end; i++) {
            char c = input.charAt(i);
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\\' -> out.append(quoted ? "\\\\" : "\\");
                case '\'' -> out.append(quoted ? "\\'" : "'");
                default -> {
                    if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT
                            || Character.getType(c) == Character.LINE_SEPARATOR
                            || Character.getType(c) == Character.PARAGRAPH_SEPARATOR
                            || Character.isSurrogate(c) && !pairedSurrogate(input, i)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        if (quoted) {
            out.append('\'');
        }
        if (end < input.length()) {
            out.append("… (").append(input.length()).append(" characters)");
        }
        return out.toString();
    }

    private static boolean pairedSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
