package dev.crucible.runtime.training;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One conversation of an RL trajectory as {@link TrajectoryTokenizer} needs it: each turn's message as the chat template
 * renders it, which turns the policy sampled, and the tools offered.
 *
 * @param turns the messages and sampled choices in order
 * @param tools the OpenAI function tools, empty when none
 */
public record Conversation(List<Turn> turns, List<Map<String, Object>> tools) {

    public Conversation {
        turns = List.copyOf(Objects.requireNonNull(turns, "turns"));
        tools = List.copyOf(Objects.requireNonNull(tools, "tools"));
    }

    /**
     * One turn.
     *
     * @param message what the template renders: a message as the client wrote it, a choice's assistant message
     * @param choice  true when the policy sampled this turn (a choice), false for a message the client wrote
     * @param sampled a choice's sampled tokens when it carries logprobs, else empty
     */
    public record Turn(Map<String, Object> message, boolean choice, Optional<List<Token>> sampled) {
        public Turn {
            Objects.requireNonNull(message, "message");
            sampled = Objects.requireNonNull(sampled, "sampled").map(List::copyOf);
        }
    }

    /**
     * One sampled token, with every source of its id the sampler may have given.
     *
     * @param text       the token as the sampler wrote it, or null
     * @param writtenAsId true when it was written {@code token_id:...} (vLLM's {@code return_tokens_as_token_ids}), so
     *                   that only {@code id} names it
     * @param id         the id the sampler gave: {@code token_id:N}'s number, else the choice's {@code token_ids}
     *                   entry; null when it gave none (or a malformed {@code token_id:})
     * @param bytes      its UTF-8 bytes, empty when absent
     * @param logprob    its log-probability, or null
     */
    public record Token(String text, boolean writtenAsId, Long id, List<Integer> bytes, Double logprob) {
        public Token {
            bytes = List.copyOf(Objects.requireNonNull(bytes, "bytes"));
        }
    }
}
