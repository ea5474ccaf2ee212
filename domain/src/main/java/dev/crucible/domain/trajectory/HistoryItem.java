package dev.crucible.domain.trajectory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One element of {@code messages_and_choices}, typed once where it enters (the HTTP reader, or a stored job): a chat
 * message (has {@code role}) or a sampled choice (has {@code message} and no {@code role}). Each keeps the JSON object
 * the client sent, since that is what is stored and what the chat template renders; a choice also carries, typed,
 * what the trainer reads from it, so that the trainer never reads a client's map.
 */
public sealed interface HistoryItem permits HistoryItem.Message, HistoryItem.Choice {

    /** Why an object is no history item. */
    String NEITHER = "a history item is a message (with role) or a choice (with message)";

    /** The item as the client sent it. */
    Map<String, Object> json();

    /** True when this is a sampled choice. */
    default boolean isChoice() {
        return this instanceof Choice;
    }

    /** True when the object is a sampled choice: it has {@code message} and no top-level {@code role}. */
    static boolean isChoice(Map<String, Object> json) {
        return json.containsKey("message") && !json.containsKey("role");
    }

    /**
     * Types {@code json}: a choice when {@link #isChoice(Map)}, else a message.
     *
     * @throws IllegalArgumentException when it is neither, or a choice's parts have the wrong shape (the HTTP reader
     *     refuses those first, naming their path)
     */
    static HistoryItem of(Map<String, Object> json) {
        Objects.requireNonNull(json, "json");
        return isChoice(json) ? Choice.of(json) : new Message(json);
    }

    /** A chat message, rendered as sent. */
    record Message(Map<String, Object> json) implements HistoryItem {
        public Message {
            Objects.requireNonNull(json, "json");
            if (!json.containsKey("role")) {
                throw new IllegalArgumentException(NEITHER);
            }
        }

        /** The message's role; empty text when it is not a string. */
        public String role() {
            return json.get("role") instanceof String role ? role : "";
        }
    }

    /**
     * A sampled choice.
     *
     * @param message  the assistant message it produced, as sent
     * @param logprobs the sampled tokens ({@code logprobs.content}); empty when the choice carries none
     * @param tokenIds the sampled token ids ({@code token_ids}), each >= 0 but not yet checked against a vocabulary
     *                 (the trainer's to do, naming the path); empty when absent
     */
    record Choice(Map<String, Object> message, Optional<List<SampledToken>> logprobs, List<Long> tokenIds,
            Map<String, Object> json) implements HistoryItem {
        public Choice {
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(json, "json");
            logprobs = Objects.requireNonNull(logprobs, "logprobs").map(List::copyOf);
            tokenIds = List.copyOf(tokenIds);
            if (!HistoryItem.isChoice(json)) {
                throw new IllegalArgumentException(NEITHER);
            }
        }

        @SuppressWarnings("unchecked")
        static Choice of(Map<String, Object> json) {
            if (!(json.get("message") instanceof Map<?, ?> message)) {
                throw new IllegalArgumentException("message must be an object, got " + json.get("message"));
            }
            Optional<List<SampledToken>> logprobs = Optional.empty();
            if (json.get("logprobs") instanceof Map<?, ?> lp && lp.get("content") instanceof List<?> content) {
                List<SampledToken> tokens = new ArrayList<>();
                for (int i = 0; i < content.size(); i++) {
                    if (!(content.get(i) instanceof Map<?, ?> entry)) {
                        throw new IllegalArgumentException("logprobs.content[" + i + "] must be an object");
                    }
                    tokens.add(SampledToken.of((Map<String, Object>) entry, "logprobs.content[" + i + "]"));
                }
                logprobs = Optional.of(tokens);
            }
            List<Long> ids = new ArrayList<>();
            if (json.get("token_ids") instanceof List<?> listed) {
                for (int i = 0; i < listed.size(); i++) {
                    ids.add(SampledToken.integer(listed.get(i), "token_ids[" + i + "]", Long.MAX_VALUE));
                }
            }
            return new Choice((Map<String, Object>) message, logprobs, ids, json);
        }
    }
}
