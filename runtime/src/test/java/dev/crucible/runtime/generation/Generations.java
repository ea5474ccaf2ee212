package dev.crucible.runtime.generation;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;

import dev.crucible.runtime.generation.sampling.SamplingParams;
import dev.crucible.runtime.generation.sampling.SamplingParamsBuilder;
import java.util.Set;
import java.util.function.UnaryOperator;

/** Test fixtures: a generator over the fakes, and one-call generation with the streaming contract checked. */
final class Generations {

    static final EndOfSequence EOS = EndOfSequence.of(FakeTokenizer.EOS, Set.of(FakeTokenizer.EXTRA_EOS));
    static final int[] PROMPT = {FakeTokenizer.SPECIAL, FakeTokenizer.D};

    private Generations() {
    }

    /** A model that emits {@code script} after a prompt of {@code promptLength} tokens, repeating its last entry. */
    static FakeModelRunner scripted(int promptLength, int... script) {
        return FakeModelRunner.peaked(FakeTokenizer.VOCAB,
                context -> script[Math.min(context.size() - promptLength, script.length - 1)]);
    }

    static Generator generator(FakeModelRunner runner, int maxModelLen, int chunk, int maxSequences) {
        return Generator.start(runner, new FakeTokenizer(), EOS, new GeneratorOptions(maxModelLen, chunk,
                maxSequences));
    }

    static SamplingParams params(UnaryOperator<SamplingParamsBuilder> change) {
        return value(change.apply(SamplingParams.builder().temperature(0)).build());
    }

    /** Generates {@code prompt} alone and checks that the deltas add up to the result. */
    static GenerationResult generate(FakeModelRunner runner, int maxModelLen, int[] prompt,
            UnaryOperator<SamplingParamsBuilder> change) {
        try (Generator generator = generator(runner, maxModelLen, 64, 8)) {
            Recorder recorder = new Recorder();
            GenerationHandle handle = value(generator.submit(GenerationRequest.of(prompt, params(change)), recorder));
            GenerationResult result = handle.result().join();
            recorder.assertDeltasMatch(result);
            return result;
        }
    }

    static SequenceOutput only(FakeModelRunner runner, UnaryOperator<SamplingParamsBuilder> change) {
        return generate(runner, 64, PROMPT, change).sequences().getFirst();
    }
}
