package dev.crucible.runtime.generation.sampling;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class SamplerTest {

    /** Logits ln 1..ln 4: probabilities exactly 0.1, 0.2, 0.3, 0.4. */
    private static final float[] TENTHS = {0f, (float) Math.log(2), (float) Math.log(3), (float) Math.log(4)};
    private static final float[] PREFERS_0 = {2f, 1.5f, 0f, 0f};

    private static Sampler sampler(UnaryOperator<SamplingParamsBuilder> change, int... prompt) {
        return new Sampler(value(change.apply(SamplingParams.builder()).build()), prompt, Set.of(0), 0);
    }

    private static List<Integer> run(Sampler sampler, float[] logits, int steps) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            out.add(sampler.sample(logits).tokenId());
        }
        return out;
    }

    private static Set<Integer> support(UnaryOperator<SamplingParamsBuilder> change) {
        return new TreeSet<>(run(sampler(b -> change.apply(b).seed(7)), TENTHS, 2000));
    }

    @Test
    void greedyTakesTheFirstHighestScore() {
        assertEquals(List.of(3, 3), run(sampler(b -> b.temperature(0)), TENTHS, 2));
        assertEquals(List.of(1), run(sampler(b -> b.temperature(0)), new float[] {0f, 5f, 5f}, 1));
    }

    @Test
    void logprobsAreTheRawLogSoftmaxWhateverTheProcessing() {
        Sample s = sampler(b -> b.temperature(0.3).logitBias(Map.of(0, 100.0)).repetitionPenalty(1.7).logprobs(2),
                0).sample(TENTHS);
        assertEquals(0, s.tokenId());
        assertEquals(Math.log(0.1), s.logprob().getAsDouble(), 1e-6);
        // vLLM's chat order: the sampled token first, then the best other one
        assertEquals(List.of(0, 3), s.top().stream().map(Candidate::tokenId).toList());
        assertEquals(Math.log(0.4), s.top().get(1).logprob(), 1e-6);
        Sample greedy = sampler(b -> b.temperature(0).logprobs(3)).sample(TENTHS);
        assertEquals(List.of(3, 2, 1), greedy.top().stream().map(Candidate::tokenId).toList());
        assertEquals(Math.log(0.3), greedy.top().get(1).logprob(), 1e-6);
        assertEquals(List.of(), sampler(b -> b.logprobs(0)).sample(TENTHS).top());
        assertTrue(sampler(b -> b).sample(TENTHS).logprob().isEmpty());
    }

    @Test
    void truncationKeepsWhatVllmKeeps() {
        assertEquals(Set.of(0, 1, 2, 3), support(b -> b));
        assertEquals(Set.of(2, 3), support(b -> b.topK(2)));
        assertEquals(Set.of(3), support(b -> b.topK(1)));
        // ascending cumulative 0.1, 0.3, 0.6, 1.0: top_p 0.8 drops what stays within 0.2, top_p 0.5 within 0.5
        assertEquals(Set.of(1, 2, 3), support(b -> b.topP(0.8)));
        assertEquals(Set.of(2, 3), support(b -> b.topP(0.5)));
        // min_p 0.6 drops probabilities below 0.6 * 0.4 = 0.24
        assertEquals(Set.of(2, 3), support(b -> b.minP(0.6)));
        assertEquals(Set.of(1, 2, 3), support(b -> b.minP(0.4)));
    }

    @Test
    void drawsInProportionToTheRenormalisedProbabilities() {
        List<Integer> draws = run(sampler(b -> b.topK(2).seed(11)), TENTHS, 20_000);
        double share3 = draws.stream().filter(t -> t == 3).count() / 20_000.0;
        assertEquals(4.0 / 7.0, share3, 0.015);
        List<Integer> hot = run(sampler(b -> b.temperature(2).seed(11)), TENTHS, 20_000);
        // at temperature 2 the probabilities are proportional to sqrt(1..4)
        double sum = 1 + Math.sqrt(2) + Math.sqrt(3) + 2;
        assertEquals(1 / sum, hot.stream().filter(t -> t == 0).count() / 20_000.0, 0.015);
    }

    @Test
    void aSeedReproducesAndTheSequenceIndexVaries() {
        SamplingParams p = value(SamplingParams.builder().seed(42).build());
        List<Integer> first = run(new Sampler(p, new int[] {1}, Set.of(), 0), TENTHS, 50);
        assertEquals(first, run(new Sampler(p, new int[] {1}, Set.of(), 0), TENTHS, 50));
        assertNotEquals(first, run(new Sampler(p, new int[] {1}, Set.of(), 1), TENTHS, 50));
    }

    @Test
    void repetitionPenaltyCoversThePromptAndBothSigns() {
        // 2 / 2 = 1 < 1.5, so the prompt's token 0 loses
        assertEquals(List.of(1), run(sampler(b -> b.temperature(0).repetitionPenalty(2), 0), PREFERS_0, 1));
        // -1 * 2 = -2 < -1.5
        assertEquals(List.of(1), run(sampler(b -> b.temperature(0).repetitionPenalty(2), 0),
                new float[] {-1f, -1.5f, -5f}, 1));
        assertEquals(List.of(0), run(sampler(b -> b.temperature(0).repetitionPenalty(2), 2), PREFERS_0, 1));
    }

    @Test
    void frequencyAndPresencePenaltiesCountOutputOnly() {
        // token 0: 2 - 0.3 * count; token 1: 1.5 - 0.3 * count
        assertEquals(List.of(0, 0, 1, 0, 1), run(sampler(b -> b.temperature(0).frequencyPenalty(0.3), 0),
                PREFERS_0, 5));
        // presence: 2 - 0.6 = 1.4 < 1.5, then 1.5 - 0.6 = 0.9 < 1.4
        assertEquals(List.of(0, 1, 0, 0), run(sampler(b -> b.temperature(0).presencePenalty(0.6), 0), PREFERS_0, 4));
    }

    @Test
    void biasAllowedIdsBadWordsAndMinTokensMask() {
        assertEquals(List.of(2), run(sampler(b -> b.temperature(0).logitBias(Map.of(2, 3.0))), PREFERS_0, 1));
        assertEquals(List.of(1, 1), run(sampler(b -> b.temperature(0).allowedTokenIds(List.of(1, 2))), PREFERS_0, 2));
        assertEquals(List.of(1), run(sampler(b -> b.temperature(0).badWords(List.of(List.of(0)))), PREFERS_0, 1));
        // min_tokens hides the stop id 0 for two tokens
        assertEquals(List.of(1, 1, 0), run(sampler(b -> b.temperature(0).minTokens(2)), PREFERS_0, 3));
        Sampler words = sampler(b -> b.temperature(0).badWords(List.of(List.of(1, 0))));
        assertEquals(1, words.sample(new float[] {1.5f, 2f, 0f}).tokenId());
        // after 1, the word's last token 0 is banned
        assertEquals(1, words.sample(PREFERS_0).tokenId());
        assertEquals(List.of(1, 1), words.output());
    }
}
