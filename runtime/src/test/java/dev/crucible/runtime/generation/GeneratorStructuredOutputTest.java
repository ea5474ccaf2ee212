package dev.crucible.runtime.generation;

import static dev.crucible.runtime.generation.FakeTokenizer.A;
import static dev.crucible.runtime.generation.FakeTokenizer.B;
import static dev.crucible.runtime.generation.FakeTokenizer.EOS;
import static dev.crucible.runtime.generation.FakeTokenizer.E_ACUTE_1;
import static dev.crucible.runtime.generation.FakeTokenizer.E_ACUTE_2;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.runtime.generation.logprobs.PositionLogprobs;
import dev.crucible.runtime.generation.sampling.SamplingParamsBuilder;
import dev.crucible.runtime.generation.stopping.Finish;
import dev.crucible.runtime.generation.stopping.FinishReason;
import dev.crucible.runtime.structured.OutputConstraint;
import dev.crucible.runtime.structured.OutputConstraints;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class GeneratorStructuredOutputTest {

    private final OutputConstraints compiler = new OutputConstraints(4);

    private GenerationResult generate(FakeModelRunner runner, String regex, UnaryOperator<SamplingParamsBuilder> change) {
        OutputConstraint constraint = value(compiler.regex("structured_outputs", regex));
        try (Generator generator = Generations.generator(runner, 64, 64, 8)) {
            Recorder recorder = new Recorder();
            GenerationRequest request = new GenerationRequest(Generations.PROMPT, Generations.params(change), 0, null,
                    Optional.of(constraint));
            GenerationResult result = value(generator.submit(request, recorder)).result().join();
            recorder.assertDeltasMatch(result);
            return result;
        }
    }

    @Test
    void greedyDecodingTakesTheBestAllowedTokenAndEndsWithEosOnceComplete() {
        // the model always wants "h", which the pattern never allows; among equal logits argmax takes the lowest id
        FakeModelRunner wantsH = FakeModelRunner.peaked(FakeTokenizer.VOCAB, context -> 15);
        SequenceOutput out = generate(wantsH, "ab(d|é)", b -> b.maxTokens(20)).sequences().getFirst();
        assertEquals(List.of(A, B, E_ACUTE_1, E_ACUTE_2, EOS), out.tokenIds());
        assertEquals("abé", out.text());
        assertEquals(new Finish(FinishReason.STOP, Optional.empty()), out.finish());
    }

    @Test
    void everySampledSequenceMatchesAndMaxTokensCutsWithLength() {
        FakeModelRunner uniform = new FakeModelRunner(FakeTokenizer.VOCAB, 64, context -> new float[FakeTokenizer.VOCAB]);
        String regex = "[abdefgh]{1,6}( c)?(é|€)";
        GenerationResult result = generate(uniform, regex, b -> b.temperature(1).seed(3).n(8)
                .maxTokens(30));
        for (SequenceOutput out : result.sequences()) {
            assertTrue(Pattern.compile(regex).matcher(out.text()).matches(), out.text());
            assertEquals(FinishReason.STOP, out.finish().reason());
        }
        SequenceOutput cut = generate(uniform, "(ab)+d", b -> b.maxTokens(3)).sequences().getFirst();
        assertEquals("aba", cut.text());
        assertEquals(FinishReason.LENGTH, cut.finish().reason());
    }

    @Test
    void logprobsAreTakenAfterTheMask() {
        FakeModelRunner uniform = new FakeModelRunner(FakeTokenizer.VOCAB, 64, context -> new float[FakeTokenizer.VOCAB]);
        SequenceOutput out = generate(uniform, "(a|b)d", b -> b.logprobs(3).maxTokens(5))
                .sequences().getFirst();
        PositionLogprobs first = out.logprobs().getFirst();
        assertEquals(Math.log(0.5), first.sampled().logprob(), 1e-9, "two tokens allowed, equally likely");
        assertEquals(Double.NEGATIVE_INFINITY, first.top().get(2).logprob(), "a masked token has no probability");
        assertEquals(0.0, out.logprobs().get(1).sampled().logprob(), 1e-9, "only d may follow");
    }
}
