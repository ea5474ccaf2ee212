package dev.crucible.adapters.http.body;

import java.util.Optional;

/**
 * What PostgreSQL cannot store in {@code text} or {@code jsonb}: U+0000 (refused by both), and a lone UTF-16
 * surrogate (a JSON escape such as {@code "\ud800"} with no partner), which has no UTF-8 form and would reach the
 * database corrupted. Every other character round-trips. Request strings bound for the database are checked here.
 */
public final class StorableText {

    private StorableText() {
    }

    /** Why {@code text} cannot be stored, as the end of a sentence naming the field; empty when it can. */
    public static Optional<String> problem(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\u0000') {
                return Optional.of("contains U+0000 (NUL), which cannot be stored; remove it or escape it yourself");
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return Optional.of(String.format("contains a lone UTF-16 surrogate (\\u%04x at character %d), which is "
                        + "not Unicode text", (int) c, i));
            }
        }
        return Optional.empty();
    }
}
