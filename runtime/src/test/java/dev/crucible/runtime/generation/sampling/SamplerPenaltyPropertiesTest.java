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
 * vocabulary: the sampler visits only the tokens that appeared, and skips the processors altogether when none would
 * change a score, and must pick the same tokens either way.
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
        int[] promptIds = prompt.stream().mapToInt(Integer::intValue).filter(id -> id < logits.length).toArray();
        double rep = neutral ? 1 : repetition;
        double freq = neutral ? 0 : frequency;
        double pres = neutral ? 0 : presence;
        Sampler sampler = new Sampler(value(SamplingParams.builder().temperature(0).repetitionPenalty(rep)
                .frequencyPenalty(freq).presencePenalty(pres).build()), promptIds, Set.of(), 0);
        List<Integer> output = new ArrayList<>();
        for (int s = 0; s < steps; s++) {
            int expected = reference(logits, promptIds, output, rep, freq, pres);
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
