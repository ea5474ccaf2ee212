package dev.crucible.application.inference.chat.ask;

import dev.crucible.kernel.invariant.NonNull;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The sampling fields of a chat request. The optional numbers are empty when the request left them out (or sent
 * null): the model's generation config, then vLLM's built-ins (temperature 1, top_p 1, top_k 0, min_p 0, penalties
 * 0/0/1) fill them in.
 *
 * @param n               how many choices, 1 by default
 * @param seed            empty when absent or {@code -1} (vLLM treats -1 as no seed)
 * @param logitBias       token id to bias, each value already clamped to [-100, 100]
 * @param allowedTokenIds when present, the only tokens that may be sampled (never empty)
 * @param badWords        words never to generate (none empty)
 * @param lengthPenalty   beam search only, 1 by default
 */
public record ChatSampling(Optional<Double> temperature, Optional<Double> topP, Optional<Integer> topK,
        Optional<Double> minP, Optional<Double> presencePenalty, Optional<Double> frequencyPenalty,
        Optional<Double> repetitionPenalty, int n, OptionalLong seed, Map<Integer, Double> logitBias,
        Optional<List<Integer>> allowedTokenIds, List<String> badWords, boolean useBeamSearch, double lengthPenalty) {

    public ChatSampling {
        NonNull.components(ChatSampling.class, temperature, topP, topK, minP, presencePenalty, frequencyPenalty,
                repetitionPenalty, seed);
        logitBias = JsonCopies.map(logitBias);
        allowedTokenIds = Objects.requireNonNull(allowedTokenIds, "allowedTokenIds").map(List::copyOf);
        badWords = List.copyOf(badWords);
    }

    /** Nothing set: n 1, no seed, no biases or token restrictions, no beam search. */
    public static ChatSampling defaults() {
        return new ChatSampling(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), 1, OptionalLong.empty(), Map.of(),
                Optional.empty(), List.of(), false, 1.0);
    }
}
