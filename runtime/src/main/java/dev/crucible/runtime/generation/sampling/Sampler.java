package dev.crucible.runtime.generation.sampling;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;

/**
 * Picks one sequence's next tokens, in vLLM V1's order: raw logprobs are taken first; then allowed_token_ids,
 * bad_words, min_tokens (stop ids hidden until enough tokens exist), logit_bias, the repetition penalty (prompt and
 * output), frequency and presence penalties (output), then greedy argmax at temperature 0, else temperature, min_p,
 * top_k, top_p and a draw. Scores are processed in double precision.
 *
 * <p>State: the sampler remembers the tokens it sampled (penalties, bad words and min_tokens depend on them) and owns
 * a {@code L64X128MixRandom} seeded with {@code seed + sequenceIndex}, or randomly without a seed, so a fixed seed
 * reproduces whatever else is batched. Not thread-safe: one sampler per sequence, used by one thread at a time.
 */
public final class Sampler {

    private static final String ALGORITHM = "L64X128MixRandom";

    private final SamplingParams params;
    private final BitSet prompt = new BitSet();
    private final Set<Integer> stopIds;
    private final RandomGenerator random;
    private final List<Integer> output = new ArrayList<>();
    private final BitSet produced = new BitSet();
    private int[] counts = new int[0];

    /**
     * @param params        the request's parameters
     * @param promptTokenIds the prompt, for the repetition penalty
     * @param stopIds       the ids min_tokens hides: EOS (unless ignore_eos), generation-config EOS and stop_token_ids
     * @param sequenceIndex which of the request's {@code n} sequences this is, added to the seed
     */
    public Sampler(SamplingParams params, int[] promptTokenIds, Set<Integer> stopIds, int sequenceIndex) {
        this.params = Objects.requireNonNull(params, "params");
        this.stopIds = Set.copyOf(stopIds);
        for (int id : promptTokenIds) {
            prompt.set(id);
        }
        RandomGeneratorFactory<RandomGenerator> factory = RandomGeneratorFactory.of(ALGORITHM);
        this.random = params.seed().isPresent() ? factory.create(params.seed().getAsLong() + sequenceIndex)
                : factory.create();
    }

    /**
     * Samples the next token from the model's raw {@code logits} (not modified) and remembers it.
     *
     * @throws IllegalArgumentException for an empty logits array
     */
    public Sample sample(float[] logits) {
        return sample(logits, Optional.empty());
    }

    /**
     * Samples as {@link #sample(float[])}, with a structured-output mask applied first: tokens outside
     * {@code mask} get minus infinity before anything else, as vLLM's grammar bitmask, so the logprobs returned
     * include it (masked tokens are minus infinity there too).
     *
     * @param mask the tokens the constraint allows; at least one of them must be below {@code logits.length}
     */
    public Sample sample(float[] rawLogits, Optional<BitSet> mask) {
        if (rawLogits.length == 0) {
            throw new IllegalArgumentException("logits must not be empty");
        }
        float[] logits = mask.map(m -> masked(rawLogits, m)).orElse(rawLogits);
        int token = params.greedy() && onlyPenalties()
                ? LogitsProcessors.penalizedArgmax(logits, prompt, produced, counts, params) : pick(logits);
        output.add(token);
        if (counts.length <= token) {
            counts = Arrays.copyOf(counts, logits.length);
        }
        counts[token]++;
        produced.set(token);
        if (params.logprobs().isEmpty()) {
            return new Sample(token, OptionalDouble.empty(), List.of());
        }
        double[] logprobs = LogSoftmax.of(logits);
        return new Sample(token, OptionalDouble.of(logprobs[token]),
                LogSoftmax.top(logprobs, token, params.logprobs().getAsInt()));
    }

    /** Runs the processors over a double copy of {@code logits}, then the greedy argmax or a draw. */
    private int pick(float[] logits) {
        double[] scores = new double[logits.length];
        for (int id = 0; id < logits.length; id++) {
            scores[id] = logits[id];
        }
        params.allowedTokenIds().ifPresent(allowed -> LogitsProcessors.allowOnly(scores, allowed));
        LogitsProcessors.banBadWords(scores, params.badWords(), output);
        if (output.size() < params.minTokens()) {
            LogitsProcessors.ban(scores, stopIds);
        }
        LogitsProcessors.bias(scores, params.logitBias());
        LogitsProcessors.penalize(scores, prompt, produced, counts, params);
        return params.greedy() ? argmax(scores) : Truncation.draw(scores, params, random);
    }

    /**
     * Whether no processor but the penalties would change a score now, so greedy decoding can take the penalised
     * argmax of the logits as they are ({@link LogitsProcessors#penalizedArgmax}): the same token as the argmax of
     * their processed double copy, without the vocabulary-sized copy a token. Qwen's generation configs set a
     * repetition penalty by default, so this is the common greedy path.
     */
    private boolean onlyPenalties() {
        return params.allowedTokenIds().isEmpty() && params.badWords().isEmpty()
                && (output.size() >= params.minTokens() || stopIds.isEmpty()) && params.logitBias().isEmpty();
    }

    private static float[] masked(float[] logits, BitSet allowed) {
        float[] out = new float[logits.length];
        Arrays.fill(out, Float.NEGATIVE_INFINITY);
        for (int id = allowed.nextSetBit(0); id >= 0 && id < logits.length; id = allowed.nextSetBit(id + 1)) {
            out[id] = logits[id];
        }
        return out;
    }

    /** The tokens sampled so far, oldest first; an unmodifiable view. */
    public List<Integer> output() {
        return Collections.unmodifiableList(output);
    }

    /** The first highest score, as {@code torch.argmax}. */
    private static int argmax(double[] scores) {
        int best = 0;
        for (int id = 1; id < scores.length; id++) {
            if (scores[id] > scores[best]) {
                best = id;
            }
        }
        return best;
    }
}
