package dev.crucible.application.primitives;

import dev.crucible.kernel.refusal.Excerpt;
import java.util.Optional;
import java.util.UUID;

/** The ids the primitives hand out (request ids, runs, sessions) are UUIDs in their canonical text form. */
final class RequestIds {

    private RequestIds() {
    }

    /** The UUID {@code text} names; empty for anything else (so an unknown id is "not found", never a crash). */
    static Optional<UUID> parse(String text) {
        if (text == null || text.length() != 36) {
            return Optional.empty();
        }
        try {
            UUID id = UUID.fromString(text);
            return id.toString().equals(text.toLowerCase(java.util.Locale.ROOT)) ? Optional.of(id) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    static String excerpt(String text) {
        return Excerpt.line(String.valueOf(text), 80);
    }
}
