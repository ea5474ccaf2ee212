package dev.crucible.engine.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.config.Architecture;
import dev.crucible.testsupport.engine.Logits;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The djl engine against an independent reference: {@code reference/reference.py}, a NumPy port of transformers'
 * Llama/Qwen2/Qwen3 modelling code, run once on the tiny models these tests rewrite from the same seed. Logits must
 * agree within {@link #TOLERANCE} (float32 engine against a float64 reference; logits have a standard deviation near 4).
 */
class DjlReferenceTest {

    /**
     * Largest absolute logit difference allowed, against the reference and between two ways the engine computes the
     * same logits (cache or not, batched or alone). Measured: at most 1.6e-5 (Llama), 1.0e-5 (Qwen2), 1.4e-5 (Qwen3)
     * against the reference and 1.2e-5 between the engine's own paths; a masking or cache bug moves logits by > 0.1.
     */
    static final double TOLERANCE = 1e-4;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void prefillLogitsOfEveryPositionMatchTheReference(Architecture arch) throws IOException {
        ReferenceFixture ref = ReferenceFixture.of(arch);
        try (ModelRunner runner = ref.loadModel(dir); KvCache cache = runner.newCache(64)) {
            SequenceLogits out = runner.forward(List.of(new SequenceInput(cache, ref.sequence(), true))).getFirst();

            assertEquals(ref.sequence().length, out.positions().size());
            for (int i = 0; i < ref.sequence().length; i++) {
                assertClose(ref.sequenceLogits()[i], out.positions().get(i), arch + " position " + i);
            }
            assertArrayEquals(out.positions().getLast(), out.last());
            assertEquals(ref.sequence().length, cache.length());
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void greedyDecodingWithTheCacheReproducesTheReferenceTokensAndLogits(Architecture arch) throws IOException {
        ReferenceFixture ref = ReferenceFixture.of(arch);
        assertTrue(ref.minGreedyMargin() > 100 * TOLERANCE, "the reference's greedy choices are no near-ties");
        try (ModelRunner runner = ref.loadModel(dir); KvCache cache = runner.newCache(ref.sequence().length + 1)) {
            float[] logits = runner.forward(List.of(SequenceInput.of(cache, ref.prompt()))).getFirst().last();
            int[] generated = new int[ref.greedy().length];
            for (int step = 0; step < generated.length; step++) {
                assertClose(ref.sequenceLogits()[ref.prompt().length - 1 + step], logits,
                        arch + " decode step " + step);
                generated[step] = Logits.argmax(logits);
                logits = runner.forward(List.of(SequenceInput.of(cache, generated[step]))).getFirst().last();
            }
            assertArrayEquals(ref.greedy(), generated);
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void decodingStepByStepMatchesAFullReforward(Architecture arch) throws IOException {
        ReferenceFixture ref = ReferenceFixture.of(arch);
        int[] tokens = ref.sequence();
        try (ModelRunner runner = ref.loadModel(dir); KvCache stepped = runner.newCache(tokens.length);
                KvCache whole = runner.newCache(tokens.length)) {
            List<float[]> full = runner.forward(List.of(new SequenceInput(whole, tokens, true))).getFirst().positions();
            for (int i = 0; i < tokens.length; i++) {
                float[] step = runner.forward(List.of(SequenceInput.of(stepped, tokens[i]))).getFirst().last();
                assertClose(full.get(i), step, arch + " token " + i);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void prefillInChunksMatchesOnePrefill(Architecture arch) throws IOException {
        ReferenceFixture ref = ReferenceFixture.of(arch);
        int[] prompt = ref.prompt();
        try (ModelRunner runner = ref.loadModel(dir); KvCache cache = runner.newCache(prompt.length)) {
            runner.forward(List.of(SequenceInput.of(cache, Arrays.copyOfRange(prompt, 0, 5))));
            SequenceLogits rest = runner.forward(List.of(
                    new SequenceInput(cache, Arrays.copyOfRange(prompt, 5, prompt.length), true))).getFirst();

            for (int i = 5; i < prompt.length; i++) {
                assertClose(ref.sequenceLogits()[i], rest.positions().get(i - 5), arch + " position " + i);
            }
            assertEquals(0, cache.remaining());
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void aBatchOfThreeSequencesOfDifferentLengthsGivesEachTheLogitsItGetsAlone(Architecture arch) throws IOException {
        ReferenceFixture ref = ReferenceFixture.of(arch);
        List<int[]> prompts = List.of(ref.prompt(), ref.extraPrompts().get(0), ref.extraPrompts().get(1));
        List<float[]> expected = List.of(ref.promptLastLogits(), ref.extraLogits()[0], ref.extraLogits()[1]);
        try (ModelRunner runner = ref.loadModel(dir)) {
            List<KvCache> alone = prompts.stream().map(p -> runner.newCache(32)).toList();
            List<KvCache> batched = prompts.stream().map(p -> runner.newCache(32)).toList();
            List<SequenceLogits> together = runner.forward(List.of(SequenceInput.of(batched.get(0), prompts.get(0)),
                    SequenceInput.of(batched.get(1), prompts.get(1)), SequenceInput.of(batched.get(2), prompts.get(2))));
            int[] next = new int[3];
            for (int i = 0; i < 3; i++) {
                float[] single = runner.forward(List.of(SequenceInput.of(alone.get(i), prompts.get(i)))).getFirst().last();
                assertClose(expected.get(i), together.get(i).last(), arch + " batched prompt " + i);
                assertClose(single, together.get(i).last(), arch + " batched vs alone, prompt " + i);
                next[i] = Logits.argmax(single);
            }
            // One decoding step for all three at once: caches of lengths 12, 5 and 9.
            List<SequenceLogits> step = runner.forward(List.of(SequenceInput.of(batched.get(0), next[0]),
                    SequenceInput.of(batched.get(1), next[1]), SequenceInput.of(batched.get(2), next[2])));
            for (int i = 0; i < 3; i++) {
                float[] single = runner.forward(List.of(SequenceInput.of(alone.get(i), next[i]))).getFirst().last();
                assertClose(single, step.get(i).last(), arch + " batched decode, sequence " + i);
                assertEquals(prompts.get(i).length + 1, batched.get(i).length());
            }
            assertClose(ref.sequenceLogits()[ref.prompt().length], step.get(0).last(), arch + " decode");
            alone.forEach(KvCache::close);
            batched.forEach(KvCache::close);
        }
    }


    private static void assertClose(float[] expected, float[] actual, String what) {
        Logits.assertClose(expected, actual, TOLERANCE, what);
    }
}
