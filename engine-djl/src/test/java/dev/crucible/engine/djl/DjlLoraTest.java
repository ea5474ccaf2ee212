package dev.crucible.engine.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.LoraAdapter;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.peft.LoraConfig;
import dev.crucible.hf.peft.LoraTarget;
import dev.crucible.hf.peft.PeftAdapterWriter;
import dev.crucible.hf.tiny.TinyAdapter;
import dev.crucible.testsupport.engine.Logits;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * LoRA adapters in PEFT format applied per sequence, against {@code reference/reference.py} with the same random
 * adapter (r = 8, alpha = 16, all seven projections). Measured against the reference: at most 1.6e-5 (Llama),
 * 1.2e-5 (Qwen2), 1.3e-5 (Qwen3); the adapter itself moves logits by several units.
 */
class DjlLoraTest {

    private static final double TOLERANCE = DjlReferenceTest.TOLERANCE;
    private static final DjlEngineProvider ENGINE = new DjlEngineProvider();

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void peftsInitialAdapterWithBZeroGivesExactlyTheBaseLogits(Architecture arch) throws IOException {
        ReferenceFixture ref = ReferenceFixture.of(arch);
        try (ModelRunner runner = ref.loadModel(dir)) {
            TinyAdapter.writePeftInit(runner.config(), dir.resolve("step-0"), 5);
            try (LoraAdapter zero = runner.loadAdapter(dir.resolve("step-0")); KvCache base = runner.newCache(32);
                    KvCache adapted = runner.newCache(32)) {
                SequenceLogits plain = runner.forward(List.of(new SequenceInput(base, ref.prompt(), true))).getFirst();
                SequenceLogits lora = runner.forward(List.of(new SequenceInput(adapted, ref.prompt(), true, zero)))
                        .getFirst();
                for (int i = 0; i < ref.prompt().length; i++) {
                    assertArrayEquals(plain.positions().get(i), lora.positions().get(i), arch + " position " + i);
                }
                int next = Logits.argmax(plain.last());
                assertArrayEquals(runner.forward(List.of(SequenceInput.of(base, next))).getFirst().last(),
                        runner.forward(List.of(SequenceInput.of(adapted, zero, next))).getFirst().last());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void aRandomAdaptersPrefillLogitsOfEveryPositionMatchTheReference(Architecture arch) throws IOException {
        ReferenceFixture ref = ReferenceFixture.ofLora(arch);
        try (ModelRunner runner = ref.loadModel(dir); LoraAdapter adapter = loadFixtureAdapter(runner, ref);
                KvCache cache = runner.newCache(64)) {
            SequenceLogits out = runner.forward(List.of(new SequenceInput(cache, ref.sequence(), true, adapter)))
                    .getFirst();

            double max = 0;
            for (int i = 0; i < ref.sequence().length; i++) {
                max = Math.max(max, assertClose(ref.sequenceLogits()[i], out.positions().get(i), arch + " " + i));
            }
            System.out.printf("%s with LoRA: max |logit - reference| %.2e%n", arch, max);
            assertEquals(8, adapter.rank());
            assertEquals(2.0, adapter.scaling());
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void greedyDecodingWithAnAdapterAndTheCacheReproducesTheReference(Architecture arch) throws IOException {
        ReferenceFixture ref = ReferenceFixture.ofLora(arch);
        assertTrue(ref.minGreedyMargin() > 100 * TOLERANCE, "the reference's greedy choices are no near-ties");
        try (ModelRunner runner = ref.loadModel(dir); LoraAdapter adapter = loadFixtureAdapter(runner, ref);
                KvCache cache = runner.newCache(ref.sequence().length + 1)) {
            float[] logits = runner.forward(List.of(SequenceInput.of(cache, adapter, ref.prompt()))).getFirst().last();
            int[] generated = new int[ref.greedy().length];
            for (int step = 0; step < generated.length; step++) {
                assertClose(ref.sequenceLogits()[ref.prompt().length - 1 + step], logits, arch + " step " + step);
                generated[step] = Logits.argmax(logits);
                logits = runner.forward(List.of(SequenceInput.of(cache, adapter, generated[step]))).getFirst().last();
            }
            assertArrayEquals(ref.greedy(), generated);
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void aBatchMixingTheBaseModelAndTwoAdaptersGivesEachSequenceItsLogitsAlone(Architecture arch)
            throws IOException {
        ReferenceFixture base = ReferenceFixture.of(arch);
        ReferenceFixture lora = ReferenceFixture.ofLora(arch);
        try (ModelRunner runner = base.loadModel(dir); LoraAdapter x = loadFixtureAdapter(runner, lora);
                LoraAdapter y = runner.loadAdapter(writeSubsetAdapter(runner.config(), dir.resolve("y")))) {
            // X adapts every projection, Y only three, so each projection groups the rows differently; X serves two
            // sequences that are not next to each other.
            List<int[]> prompts = List.of(base.prompt(), lora.extraPrompts().get(0), base.extraPrompts().get(1),
                    lora.prompt());
            List<LoraAdapter> adapters = Arrays.asList(null, x, y, x);
            List<KvCache> alone = prompts.stream().map(p -> runner.newCache(32)).toList();
            List<KvCache> batched = prompts.stream().map(p -> runner.newCache(32)).toList();
            List<SequenceInput> prefill = new ArrayList<>();
            for (int i = 0; i < prompts.size(); i++) {
                prefill.add(SequenceInput.of(batched.get(i), adapters.get(i), prompts.get(i)));
            }
            List<SequenceLogits> together = runner.forward(prefill);
            List<SequenceInput> decode = new ArrayList<>();
            List<float[]> singles = new ArrayList<>();
            for (int i = 0; i < prompts.size(); i++) {
                float[] single = runner.forward(List.of(SequenceInput.of(alone.get(i), adapters.get(i),
                        prompts.get(i)))).getFirst().last();
                assertClose(single, together.get(i).last(), arch + " batched vs alone, prompt " + i);
                decode.add(SequenceInput.of(batched.get(i), adapters.get(i), Logits.argmax(single)));
                singles.add(runner.forward(List.of(SequenceInput.of(alone.get(i), adapters.get(i),
                        Logits.argmax(single)))).getFirst().last());
            }
            assertClose(base.promptLastLogits(), together.get(0).last(), arch + " base prompt vs reference");
            assertClose(lora.extraLogits()[0], together.get(1).last(), arch + " adapter X vs reference");
            assertClose(lora.promptLastLogits(), together.get(3).last(), arch + " adapter X vs reference");
            assertTrue(Logits.maxAbsDiff(base.extraLogits()[1], together.get(2).last()) > 0.1,
                    "adapter Y changes the logits");

            List<SequenceLogits> step = runner.forward(decode);
            for (int i = 0; i < prompts.size(); i++) {
                assertClose(singles.get(i), step.get(i).last(), arch + " batched decode, sequence " + i);
            }
            alone.forEach(KvCache::close);
            batched.forEach(KvCache::close);
        }
    }

    @Test
    void aClosedAdapterOrOneOfAnotherRunnerIsRejectedBeforeAnythingRuns() throws IOException {
        ReferenceFixture ref = ReferenceFixture.ofLora(Architecture.QWEN3);
        try (ModelRunner runner = ref.loadModel(dir); ModelRunner other = ENGINE.loadModel(ModelFolder.read(dir))) {
            LoraAdapter adapter = loadFixtureAdapter(runner, ref);
            LoraAdapter foreign = other.loadAdapter(dir.resolve("adapter"));
            KvCache cache = runner.newCache(8);

            var e = assertThrows(IllegalArgumentException.class,
                    () -> runner.forward(List.of(SequenceInput.of(cache, foreign, 1))));
            assertEquals("batch[0].adapter was not loaded by this model runner", e.getMessage());
            adapter.close();
            adapter.close();
            e = assertThrows(IllegalArgumentException.class,
                    () -> runner.forward(List.of(SequenceInput.of(cache, 1), SequenceInput.of(runner.newCache(8),
                            adapter, 2))));
            assertEquals("batch[1].adapter is closed", e.getMessage());
            assertEquals(0, cache.length());
        }
    }

    @Test
    void closingTheRunnerFreesItsAdaptersAndRefusesNewOnes() throws IOException {
        ReferenceFixture ref = ReferenceFixture.ofLora(Architecture.LLAMA);
        ModelRunner runner = ref.loadModel(dir);
        LoraAdapter adapter = loadFixtureAdapter(runner, ref);
        runner.close();

        adapter.close();
        assertThrows(IllegalStateException.class, () -> runner.loadAdapter(dir.resolve("adapter")));
    }


    private LoraAdapter loadFixtureAdapter(ModelRunner runner, ReferenceFixture ref) throws IOException {
        return runner.loadAdapter(ref.writeAdapter(runner.config(), dir.resolve("adapter")));
    }

    /** A random rank-4 rsLoRA adapter of q_proj, v_proj and down_proj only. */
    private static Path writeSubsetAdapter(ModelConfig model, Path out) throws IOException {
        LoraConfig config = new LoraConfig(4, 8,
                EnumSet.of(LoraTarget.Q_PROJ, LoraTarget.V_PROJ, LoraTarget.DOWN_PROJ), true);
        PeftAdapterWriter writer = new PeftAdapterWriter(config);
        Random random = new Random(23);
        for (int layer = 0; layer < model.numHiddenLayers(); layer++) {
            for (LoraTarget t : config.targets()) {
                writer.add(layer, t, gaussians(random, 4 * t.inFeatures(model), 1 / Math.sqrt(t.inFeatures(model))),
                        gaussians(random, t.outFeatures(model) * 4, 0.1));
            }
        }
        writer.write(out);
        return out;
    }

    private static float[] gaussians(Random random, int n, double std) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (float) (std * random.nextGaussian());
        }
        return values;
    }

    private static double assertClose(float[] expected, float[] actual, String what) {
        return Logits.assertClose(expected, actual, TOLERANCE, what);
    }
}
