package dev.crucible.runtime.generation;

import static dev.crucible.runtime.generation.FakeTokenizer.EOS;
import static dev.crucible.runtime.generation.FakeTokenizer.EURO_12;
import static dev.crucible.runtime.generation.FakeTokenizer.EURO_3;
import static dev.crucible.runtime.generation.FakeTokenizer.E_ACUTE_1;
import static dev.crucible.runtime.generation.FakeTokenizer.E_ACUTE_2;
import static dev.crucible.runtime.generation.FakeTokenizer.VOCAB;
import static dev.crucible.runtime.generation.Generations.PROMPT;
import static dev.crucible.runtime.generation.Generations.generate;
import static dev.crucible.runtime.generation.Generations.only;
import static dev.crucible.runtime.generation.Generations.params;
import static dev.crucible.runtime.generation.Generations.scripted;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.crucible.kernel.refusal.Refusal.Reason;
import dev.crucible.runtime.generation.logprobs.PositionLogprobs;
import dev.crucible.runtime.generation.logprobs.TokenLogprob;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GeneratorStreamingTest {

    @Test
    void multiByteCharactersSplitAcrossTokensAreHeldBackUntilComplete() {
        FakeModelRunner runner = scripted(2, E_ACUTE_1, E_ACUTE_2, EURO_12, EURO_3, EOS);
        try (Generator generator = Generations.generator(runner, 64, 64, 8)) {
            Recorder recorder = new Recorder();
            value(generator.submit(GenerationRequest.of(PROMPT, params(b -> b)), recorder)).result().join();
            assertEquals(List.of("", "é", "", "€", ""), recorder.texts(0));
            recorder.assertDeltasMatch(recorder.completions.getFirst());
            assertEquals("é€", recorder.completions.getFirst().sequences().getFirst().text());
        }
    }

    @Test
    void logprobsAreTheLogSoftmaxOfTheRawLogits() {
        // logits ln(k + 1): probabilities (k + 1) / 136 over 16 tokens
        FakeModelRunner runner = new FakeModelRunner(VOCAB, 64, context -> {
            float[] logits = new float[VOCAB];
            for (int k = 0; k < VOCAB; k++) {
                logits[k] = (float) Math.log(k + 1);
            }
            return logits;
        });
        SequenceOutput out = only(runner, b -> b.maxTokens(2).logprobs(2).logitBias(Map.of(12, 100.0)));
        assertEquals(List.of(12, 12), out.tokenIds());
        PositionLogprobs first = out.logprobs().getFirst();
        assertEquals(Math.log(13 / 136.0), first.sampled().logprob(), 1e-6);
        assertEquals("e", first.sampled().token());
        assertArrayEquals("e".getBytes(StandardCharsets.UTF_8), first.sampled().bytes());
        assertEquals(List.of(12, 15), first.top().stream().map(TokenLogprob::tokenId).toList());
        assertEquals(Math.log(16 / 136.0), first.top().get(1).logprob(), 1e-6);
        assertEquals(2, out.logprobs().size());
    }

    /** Uniform over tokens 1..7, EOS impossible. */
    private static FakeModelRunner uniform() {
        return new FakeModelRunner(VOCAB, 64, context -> {
            float[] logits = new float[VOCAB];
            java.util.Arrays.fill(logits, Float.NEGATIVE_INFINITY);
            java.util.Arrays.fill(logits, 1, 8, 0f);
            return logits;
        });
    }

    @Test
    void aSeedReproducesWhileTheNSequencesDiffer() {
        GenerationResult first = generate(uniform(), 64, PROMPT, b -> b.temperature(1).seed(5).n(3).maxTokens(8));
        GenerationResult again = generate(uniform(), 64, PROMPT, b -> b.temperature(1).seed(5).n(3).maxTokens(8));
        assertEquals(first, again);
        List<List<Integer>> samples = first.sequences().stream().map(SequenceOutput::tokenIds).toList();
        assertEquals(3, samples.stream().distinct().count());
        assertEquals(List.of(0, 1, 2), first.sequences().stream().map(SequenceOutput::index).toList());
        assertEquals(24, first.completionTokens());
        assertNotEquals(first, generate(uniform(), 64, PROMPT, b -> b.temperature(1).seed(6).n(3).maxTokens(8)));
    }

    @Test
    void refusesWhatTheContextOrVocabularyCannotHold() {
        try (Generator generator = Generations.generator(scripted(2, EOS), 6, 64, 8)) {
            assertEquals("You passed 4 input tokens and requested 3 output tokens. However, the model's context "
                    + "length is only 6 tokens, resulting in a maximum input length of 3 tokens. Please reduce the "
                    + "length of the input prompt.", assertRefused(generator.submit(GenerationRequest.of(
                            new int[] {1, 2, 3, 4}, params(b -> b.maxTokens(3))), GenerationListener.NONE), Reason.INVALID,
                            "input_tokens"));
            assertEquals("max_tokens must be at least 1, got 0.", assertRefused(generator.submit(
                    GenerationRequest.of(new int[] {1, 2, 3, 4, 5, 6}, params(b -> b)), GenerationListener.NONE),
                    Reason.INVALID, "max_tokens"));
            assertRefused(generator.submit(GenerationRequest.of(PROMPT, params(b -> b.logitBias(Map.of(VOCAB, 1.0)))),
                    GenerationListener.NONE), Reason.INVALID, "logit_bias");
        }
    }
}
