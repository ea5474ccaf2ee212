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
     * over output tokens only. Only the tokens that appeared are visited: a vocabulary-wide pass per token would cost
     * more than the rest of the sampling.
     *
     * @param produced the tokens with {@code outputCounts[id] > 0}
     */
    static void penalize(double[] logits, BitSet prompt, BitSet produced, int[] outputCounts,
            SamplingParams params) {
        for (int id = nextPenalized(0, logits.length, prompt, produced, params); id < logits.length;
                id = nextPenalized(id + 1, logits.length, prompt, produced, params)) {
            logits[id] = penalized(logits[id], id, produced, outputCounts, params);
        }
    }

    /**
     * The greedy token under {@link #penalize} alone, without its vocabulary-sized copy: the first highest of the
     * penalised scores, found by one pass over {@code logits} that runs straight through the tokens no penalty
     * touches and scores each token that appeared (in {@code prompt} or {@code produced}) as {@link #penalize} does.
     * Compared in double precision and in id order, so it is the token {@code argmax(penalize(copy))} picks.
     *
     * @param produced the tokens with {@code outputCounts[id] > 0}
     */
    static int penalizedArgmax(float[] logits, BitSet prompt, BitSet produced, int[] outputCounts,
            SamplingParams params) {
        int best = 0;
        double bestScore = logits[0];
        int id = 0;
        while (id < logits.length) {
            int touched = nextPenalized(id, logits.length, prompt, produced, params);
            for (; id < touched; id++) {
                if (logits[id] > bestScore) {
                    best = id;
                    bestScore = logits[id];
                }
            }
            if (id < logits.length) {
                double score = penalized(logits[id], id, produced, outputCounts, params);
                if (id == 0 || score > bestScore) {
                    best = id;
                    bestScore = score;
                }
                id++;
            }
        }
        return best;
    }

    /**
     * The first id from {@code from} that a penalty changes, or {@code end} when there is none below it: one in the
     * prompt or the output under the repetition penalty, one in the output under the frequency or presence penalty.
     */
    private static int nextPenalized(int from, int end, BitSet prompt, BitSet produced, SamplingParams params) {
        boolean repeats = params.repetitionPenalty() != 1;
        boolean counted = params.frequencyPenalty() != 0 || params.presencePenalty() != 0;
        return Math.min(next(repeats ? prompt : null, from, end), next(repeats || counted ? produced : null, from,
                end));
    }

    /**
     * The score of token {@code id}, one {@link #nextPenalized} gives, under the penalties: the repetition penalty
     * (a positive score divided by it, any other multiplied), then for an output token its frequency and presence
     * penalties.
     */
    private static double penalized(double score, int id, BitSet produced, int[] outputCounts,
            SamplingParams params) {
        double repetition = params.repetitionPenalty();
        double out = repetition == 1 ? score : score > 0 ? score / repetition : score * repetition;
        if ((params.frequencyPenalty() != 0 || params.presencePenalty() != 0) && produced.get(id)) {
            out -= params.frequencyPenalty() * outputCounts[id] + params.presencePenalty();
        }
        return out;
    }

    /** The first id from {@code from} in {@code ids}, or {@code end} when there is none below it or no set at all. */
    private static int next(BitSet ids, int from, int end) {
        int next = ids == null ? -1 : ids.nextSetBit(from);
        return next < 0 ? end : Math.min(next, end);
    }

    private static void set(double[] logits, int id, double value) {
        if (id >= 0 && id < logits.length) {
            logits[id] = value;
        }
    }
}
