package dev.crucible.runtime.generation.sampling;

import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** The logits processors of vLLM's V1 sampler before temperature, each editing scores in place. Stateless. */
final class LogitsProcessors {

    private LogitsProcessors() {
    }

    /** {@code allowed_token_ids}: every other token gets minus infinity. */
    static void allowOnly(double[] logits, List<Integer> allowed) {
        BitSet keep = new BitSet(logits.length);
        allowed.forEach(keep::set);
        for (int id = 0; id < logits.length; id++) {
            if (!keep.get(id)) {
                logits[id] = Double.NEGATIVE_INFINITY;
            }
        }
    }

    /**
     * {@code bad_words}: bans a word's last token wherever the output so far ends with the word's other tokens (a
     * one-token word is always banned), as vLLM's {@code apply_bad_words}.
     */
    static void banBadWords(double[] logits, List<List<Integer>> badWords, List<Integer> output) {
        for (List<Integer> word : badWords) {
            int prefix = word.size() - 1;
            if (prefix <= output.size() && output.subList(output.size() - prefix, output.size())
                    .equals(word.subList(0, prefix))) {
                set(logits, word.get(prefix), Double.NEGATIVE_INFINITY);
            }
        }
    }

    /** Sets the given ids to minus infinity (min_tokens hides the stop ids this way). */
    static void ban(double[] logits, Collection<Integer> ids) {
        ids.forEach(id -> set(logits, id, Double.NEGATIVE_INFINITY));
    }

    /** {@code logit_bias}: adds each (already clamped) bias. */
    static void bias(double[] logits, Map<Integer, Double> bias) {
        bias.forEach((id, value) -> {
            if (id >= 0 && id < logits.length) {
                logits[id] += value;
            }
        });
    }

    /**
     * vLLM's {@code apply_penalties}: the repetition penalty over tokens in the prompt or the output (a positive score
     * divided by it, any other multiplied), then frequency ({@code count}) and presence ({@code count > 0}) penalties
     * over output tokens only.
     */
    static void penalize(double[] logits, BitSet prompt, int[] outputCounts, SamplingParams params) {
        double repetition = params.repetitionPenalty();
        for (int id = 0; id < logits.length; id++) {
            int count = id < outputCounts.length ? outputCounts[id] : 0;
            if (repetition != 1 && (prompt.get(id) || count > 0)) {
                logits[id] = logits[id] > 0 ? logits[id] / repetition : logits[id] * repetition;
            }
            if (count > 0) {
                logits[id] -= params.frequencyPenalty() * count + params.presencePenalty();
            }
        }
    }

    private static void set(double[] logits, int id, double value) {
        if (id >= 0 && id < logits.length) {
            logits[id] = value;
        }
    }
}
