package dev.crucible.runtime.generation.sampling;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.FloatRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Greedy decoding with penalties against a plain reference of vLLM's {@code apply_penalties} that visits the whole
 * vocabulary: the sampler copies nothing and scores only the tokens that appeared, on top of one pass over the raw
 * logits, and must pick the same tokens, ties to the first id included, with or without neutral penalties.
 */
class SamplerPenaltyPropertiesTest {

    @Property(tries = 300)
    void greedyWithPenaltiesPicksWhatTheWholeVocabularyReferencePicks(
            @ForAll @Size(min = 1, max = 12) List<@FloatRange(min = -4, max = 4) Float> base,
            @ForAll @Size(max = 6) List<@IntRange(min = 0, max = 11) Integer> prompt,
            @ForAll @DoubleRange(min = 0.5, max = 2) double repetition,
            @ForAll @DoubleRange(min = -1, max = 1) double frequency,
            @ForAll @DoubleRange(min = -1, max = 1) double presence,
            @ForAll boolean neutral,
            @ForAll @IntRange(min = 1, max = 8) int steps) {
        float[] logits = new float[base.size()];
        for (int i = 0; i < logits.length; i++) {
            logits[i] = base.get(i);
        }
        assertPicksAsTheReference(logits, prompt, neutral ? 1 : repetition, neutral ? 0 : frequency,
                neutral ? 0 : presence, steps);
    }

    /**
     * Small integer logits and penalties that keep them exact (halving, doubling, whole steps), so penalised and
     * untouched tokens often tie and the first id must win, as in {@code torch.argmax}.
     */
    @Property(tries = 300)
    void tiesGoToTheFirstIdUnderPenaltiesToo(
            @ForAll @Size(min = 1, max = 12) List<@IntRange(min = -2, max = 2) Integer> base,
            @ForAll @Size(max = 6) List<@IntRange(min = 0, max = 11) Integer> prompt,
            @ForAll boolean halve,
            @ForAll @IntRange(min = -1, max = 1) int frequency,
            @ForAll @IntRange(min = -1, max = 1) int presence,
            @ForAll @IntRange(min = 1, max = 8) int steps) {
        float[] logits = new float[base.size()];
        for (int i = 0; i < logits.length; i++) {
            logits[i] = base.get(i);
        }
        assertPicksAsTheReference(logits, prompt, halve ? 2 : 0.5, frequency, presence, steps);
    }

    /** {@code steps} greedy tokens from the same logits, each fed back as output, against {@link #reference}. */
    private static void assertPicksAsTheReference(float[] logits, List<Integer> prompt, double repetition,
            double frequency, double presence, int steps) {
        int[] promptIds = prompt.stream().mapToInt(Integer::intValue).filter(id -> id < logits.length).toArray();
        Sampler sampler = new Sampler(value(SamplingParams.builder().temperature(0).repetitionPenalty(repetition)
                .frequencyPenalty(frequency).presencePenalty(presence).build()), promptIds, Set.of(), 0);
        List<Integer> output = new ArrayList<>();
        for (int s = 0; s < steps; s++) {
            int expected = reference(logits, promptIds, output, repetition, frequency, presence);
            assertEquals(expected, sampler.sample(logits).tokenId());
            output.add(expected);
        }
    }

    private static int reference(float[] logits, int[] prompt, List<Integer> output, double repetition,
            double frequency, double presence) {
        double[] scores = new double[logits.length];
        int best = 0;
        for (int id = 0; id < logits.length; id++) {
            final int token = id;
            long count = output.stream().filter(t -> t == token).count();
            boolean inPrompt = java.util.Arrays.stream(prompt).anyMatch(t -> t == token);
            scores[id] = logits[id];
            if (inPrompt || count > 0) {
                scores[id] = scores[id] > 0 ? scores[id] / repetition : scores[id] * repetition;
            }
            if (count > 0) {
                scores[id] -= frequency * count + presence;
            }
            if (scores[id] > scores[best]) {
                best = id;
            }
        }
        return best;
    }
}
