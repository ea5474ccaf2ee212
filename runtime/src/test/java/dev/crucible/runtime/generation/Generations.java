package dev.crucible.runtime.generation;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;

import dev.crucible.runtime.generation.sampling.SamplingParams;
import dev.crucible.runtime.generation.sampling.SamplingParamsBuilder;
import dev.crucible.runtime.generation.stopping.EndOfSequence;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

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

    /**
     * A model whose logits depend on every token of the context and its position, so a wrong, missing or misplaced
     * prefix (a bad cache copy, say) changes the output.
     */
    static float[] positional(List<Integer> context) {
        float[] logits = new float[FakeTokenizer.VOCAB];
        int sum = 0;
        for (int i = 0; i < context.size(); i++) {
            sum += (i + 1) * context.get(i);
        }
        for (int k = 1; k < FakeTokenizer.VOCAB; k++) {
            logits[k] = (float) Math.cos(sum * 0.7 + k);
        }
        return logits;
    }

    /** {@code length} tokens, none of them EOS, counting up from {@code from}. */
    static int[] prompt(int length, int from) {
        return IntStream.range(0, length).map(i -> 1 + (from + i) % (FakeTokenizer.VOCAB - 1)).toArray();
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
