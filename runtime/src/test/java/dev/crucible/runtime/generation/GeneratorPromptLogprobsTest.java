package dev.crucible.runtime.generation;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.runtime.generation.logprobs.PromptLogprobs;
import dev.crucible.runtime.generation.logprobs.RankedLogprob;
import java.util.List;
import org.junit.jupiter.api.Test;

class GeneratorPromptLogprobsTest {

    /** Predicts the next id after the last one, so a prompt counting up is always the top token. */
    private static FakeModelRunner counting() {
        return FakeModelRunner.peaked(FakeTokenizer.VOCAB, context -> (context.getLast() + 1) % FakeTokenizer.VOCAB);
    }

    @Test
    void everyPromptTokenButTheFirstGetsItsRankAndTheTopTokensAcrossPrefillChunks() {
        int[] prompt = {FakeTokenizer.A, FakeTokenizer.B, FakeTokenizer.SPACE_C, FakeTokenizer.D};
        try (Generator generator = Generations.generator(counting(), 64, 2, 8)) {
            GenerationResult result = value(generator.generate(GenerationRequest.of(prompt,
                    Generations.params(b -> b.maxTokens(1).promptLogprobs(2)))));
            List<PromptLogprobs> positions = result.promptLogprobs().orElseThrow();
            assertEquals(3, positions.size(), "one entry per prompt token after the first");
            List<RankedLogprob> expected = positions.getFirst().entries();
            assertEquals(FakeTokenizer.B, expected.getFirst().token().tokenId());
            assertEquals(1, expected.getFirst().rank());
            assertEquals(2, expected.size(), "the actual token is the top one, so it is not repeated");
            List<RankedLogprob> surprise = positions.get(2).entries();
            assertEquals(List.of(FakeTokenizer.D, FakeTokenizer.E_ACUTE_1, FakeTokenizer.EOS),
                    surprise.stream().map(e -> e.token().tokenId()).toList());
            assertEquals(List.of(16L, 1L, 2L), surprise.stream().map(RankedLogprob::rank).toList(),
                    "every token is at least as likely as the unlikely actual one");
            double top = Math.log(Math.exp(10) / (Math.exp(10) + 15));
            assertEquals(top, surprise.get(1).token().logprob(), 1e-6);
            assertEquals("d", surprise.getFirst().token().token());
        }
    }

    @Test
    void withoutTheParameterNothingIsComputed() {
        GenerationResult result = Generations.generate(counting(), 64, Generations.PROMPT, b -> b.maxTokens(1));
        assertTrue(result.promptLogprobs().isEmpty());
    }
}
