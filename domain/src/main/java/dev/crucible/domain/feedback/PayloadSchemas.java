package dev.crucible.domain.feedback;

import java.util.Map;
import java.util.Optional;

/**
 * The payload shapes Weave checks with pydantic models, reporting problems as pydantic does:
 * {@code 1 validation error for <Model>\n<field>\n  <message> [type=<type>]} (pydantic also echoes the input
 * and a documentation link, which are left out).
 */
final class PayloadSchemas {

    static final int MAX_NOTE_LENGTH = 1024;

    private PayloadSchemas() {
    }

    /** {@code FeedbackPayloadReactionReq{emoji: str}}. */
    static Optional<String> reactionProblem(Map<String, Object> payload) {
        return stringProblem(payload, "FeedbackPayloadReactionReq", "emoji");
    }

    /** {@code FeedbackPayloadNoteReq{note: str, min_length=1, max_length=1024}}; length in code points. */
    static Optional<String> noteProblem(Map<String, Object> payload) {
        return stringProblem(payload, "FeedbackPayloadNoteReq", "note").or(() -> {
            String note = (String) payload.get("note");
            int length = note.codePointCount(0, note.length());
            if (length < 1) {
                return Optional.of(error("FeedbackPayloadNoteReq", "note",
                        "String should have at least 1 character", "string_too_short"));
            }
            if (length > MAX_NOTE_LENGTH) {
                return Optional.of(error("FeedbackPayloadNoteReq", "note",
                        "String should have at most " + MAX_NOTE_LENGTH + " characters", "string_too_long"));
            }
            return Optional.empty();
        });
    }

    /** A model with one required field of any type, such as {@code AnnotationPayloadSchema{value: Any}}. */
    static Optional<String> requiredKeyProblem(Map<String, Object> payload, String model, String key) {
        return payload.containsKey(key) ? Optional.empty() : Optional.of(missing(model, key));
    }

    private static Optional<String> stringProblem(Map<String, Object> payload, String model, String key) {
        if (!payload.containsKey(key)) {
            return Optional.of(missing(model, key));
        }
        if (!(payload.get(key) instanceof String)) {
            return Optional.of(error(model, key, "Input should be a valid string", "string_type"));
        }
        return Optional.empty();
    }

    private static String missing(String model, String key) {
        return error(model, key, "Field required", "missing");
    }

    private static String error(String model, String field, String message, String type) {
        return "1 validation error for " + model + "\n" + field + "\n  " + message + " [type=" + type + "]";
    }
}
