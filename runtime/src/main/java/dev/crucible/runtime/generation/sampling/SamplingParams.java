package dev.crucible.runtime.generation.sampling;

import dev.crucible.kernel.invariant.NonNull;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * How one request samples, after defaults are resolved (request, then model, then vLLM's built-ins), checked as vLLM's
 * {@code SamplingParams} checks them. Build it with {@link #builder()}, whose {@code build()} turns a bad value into a
 * {@link Refusal} naming the request field; the constructor throws {@link IllegalArgumentException} with the same
 * message. Vocabulary-dependent checks are in {@link #checkVocabulary(int)}. Immutable; collections are copied.
 *
 * <p>Normalised as vLLM does: {@code top_k -1} becomes 0 (off); a {@code seed} of -1 is no seed; a temperature in
 * (0, 0.01) is raised to 0.01; at temperature 0 (greedy) {@code top_p}, {@code top_k}, {@code min_p} become 1, 0, 0;
 * {@code logit_bias} values are clamped to [-100, 100]; {@code stop_token_ids} lose duplicates.
 *
 * @param seed            empty for an unseeded request; sequence {@code i} of {@code n} uses {@code seed + i}
 * @param logitBias       token id to additive bias
 * @param allowedTokenIds when present, the only tokens that may be sampled (non-empty)
 * @param badWords        banned token sequences (each word already tokenized, with and without a leading space)
 * @param maxTokens       the most tokens to generate; {@link Integer#MAX_VALUE} lets the context length bound it,
 *                        and {@code minTokens} is checked against this value, so pass vLLM's effective max here
 * @param logprobs        empty for no logprobs, else how many top alternatives to return per token (0..20)
 * @param n               how many sequences to generate from the prompt
 * @param spacesBetweenSpecialTokens with special tokens kept, false writes consecutive added tokens without the
 *                        space a decoder may put before them (vLLM's fast detokenizer rule)
 * @param promptLogprobs  empty for none, else how many top alternatives to return per prompt token (0..20)
 */
public record SamplingParams(double temperature, double topP, int topK, double minP, double presencePenalty,
        double frequencyPenalty, double repetitionPenalty, OptionalLong seed, Map<Integer, Double> logitBias,
        Optional<List<Integer>> allowedTokenIds, List<List<Integer>> badWords, int maxTokens, int minTokens,
        List<String> stop, List<Integer> stopTokenIds, boolean ignoreEos, boolean includeStopStrInOutput,
        boolean skipSpecialTokens, OptionalInt logprobs, int n, RepetitionDetection repetitionDetection,
        boolean spacesBetweenSpecialTokens, OptionalInt promptLogprobs) {

    /** Below this temperature vLLM samples greedily. */
    public static final double GREEDY_EPSILON = 1e-5;
    /** The lowest non-greedy temperature vLLM uses. */
    static final double MIN_TEMPERATURE = 1e-2;
    /** vLLM clamps each logit bias to plus or minus this. */
    static final double MAX_BIAS = 100;

    /** Checks every range in vLLM's order and normalises as the class comment says. */
    public SamplingParams {
        NonNull.components(SamplingParams.class, seed, logitBias, allowedTokenIds, badWords, stop, stopTokenIds,
                logprobs, repetitionDetection, promptLogprobs);
        SamplingChecks.n(n, false);
        SamplingChecks.penalty("presence_penalty", presencePenalty);
        SamplingChecks.penalty("frequency_penalty", frequencyPenalty);
        SamplingChecks.repetitionPenalty(repetitionPenalty);
        SamplingChecks.temperature(temperature);
        SamplingChecks.topP(topP);
        SamplingChecks.topK(topK);
        SamplingChecks.minP(minP);
        SamplingChecks.tokens(maxTokens, minTokens);
        logprobs.ifPresent(SamplingChecks::logprobs);
        promptLogprobs.ifPresent(SamplingChecks::promptLogprobs);
        // only 0 stays greedy: (0, 0.01) is raised to 0.01 below
        SamplingChecks.n(n, temperature == 0);
        stop = List.copyOf(stop);
        SamplingChecks.stop(stop);
        badWords = badWords.stream().map(List::copyOf).toList();
        SamplingChecks.badWords(badWords);
        allowedTokenIds = allowedTokenIds.map(List::copyOf);
        SamplingChecks.allowedTokenIds(allowedTokenIds);
        SamplingChecks.fail(allowedTokenIds.map(ids -> ids.stream().anyMatch(id -> id < 0)).orElse(false),
                "allowed_token_ids", "allowed_token_ids contains out-of-vocab token id!");
        stopTokenIds = List.copyOf(new LinkedHashSet<>(stopTokenIds));
        logitBias = clamped(logitBias);
        topK = topK == -1 ? 0 : topK;
        seed = seed.isPresent() && seed.getAsLong() == -1 ? OptionalLong.empty() : seed;
        if (temperature > 0 && temperature < MIN_TEMPERATURE) {
            temperature = MIN_TEMPERATURE;
        }
        if (temperature < GREEDY_EPSILON) {
            topP = 1;
            topK = 0;
            minP = 0;
        }
    }

    /** A builder holding vLLM's defaults: temperature 1, top_p 1, top_k 0, min_p 0, no penalties, n 1. */
    public static SamplingParamsBuilder builder() {
        return new SamplingParamsBuilder();
    }

    /** Whether sampling is greedy (temperature 0). */
    public boolean greedy() {
        return temperature < GREEDY_EPSILON;
    }

    /**
     * The checks vLLM makes once the vocabulary is known: every id in {@code logit_bias}, {@code allowed_token_ids},
     * {@code stop_token_ids} and {@code bad_words} must be below {@code vocabSize}.
     *
     * @return this, or a refusal naming the field with vLLM's message
     */
    public Outcome<SamplingParams> checkVocabulary(int vocabSize) {
        String bias = SamplingChecks.outOfVocab(logitBias.keySet(), vocabSize);
        if (!bias.isEmpty()) {
            return Outcome.refused(Refusal.invalid("logit_bias", "token_id(s) " + bias
                    + " in logit_bias contain out-of-vocab token ids. Vocabulary size: " + vocabSize));
        }
        if (!allowedTokenIds.map(ids -> SamplingChecks.outOfVocab(ids, vocabSize)).orElse("").isEmpty()) {
            return Outcome.refused(Refusal.invalid("allowed_token_ids",
                    "allowed_token_ids contains out-of-vocab token id!"));
        }
        String stops = SamplingChecks.outOfVocab(stopTokenIds, vocabSize);
        if (!stops.isEmpty()) {
            return Outcome.refused(Refusal.invalid("stop_token_ids", "token_id(s) " + stops
                    + " in stop_token_ids contain out-of-vocab token ids. Vocabulary size: " + vocabSize));
        }
        String bad = SamplingChecks.outOfVocab(badWords.stream().flatMap(List::stream).toList(), vocabSize);
        if (!bad.isEmpty()) {
            return Outcome.refused(Refusal.invalid("bad_words", "The model vocabulary size is " + vocabSize
                    + ", but the following tokens were specified as bad: " + bad + ". All token id values should be "
                    + "integers satisfying: 0 <= token_id < " + vocabSize + "."));
        }
        return Outcome.done(this);
    }

    private static Map<Integer, Double> clamped(Map<Integer, Double> bias) {
        Map<Integer, Double> copy = new LinkedHashMap<>();
        bias.forEach((id, value) -> {
            SamplingChecks.fail(value == null || value.isNaN(), "logit_bias",
                    "logit_bias values must be numbers, got " + value + " for token " + id + ".");
            copy.put(Objects.requireNonNull(id, "logit_bias key"), Math.max(-MAX_BIAS, Math.min(MAX_BIAS, value)));
        });
        return Map.copyOf(copy);
    }
}
