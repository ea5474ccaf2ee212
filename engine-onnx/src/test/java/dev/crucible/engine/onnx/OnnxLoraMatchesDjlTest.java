package dev.crucible.engine.onnx;

import static dev.crucible.testsupport.engine.Logits.argmax;
import static dev.crucible.engine.onnx.OnnxMatchesDjlTest.assertClose;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.djl.DjlEngineProvider;
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
import dev.crucible.hf.tiny.TinyModel;
import dev.crucible.testsupport.engine.Logits;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * PEFT LoRA adapters applied per sequence by the onnx engine, against the djl engine with the same adapters (djl's
 * LoRA is checked against the NumPy reference in its own tests): one batch mixes the base model, an adapter of every
 * projection (r = 8) and an adapter of three projections (r = 4), so ranks are padded and untargeted projections get
 * zeros. The adapters move logits by several units, so a row given the wrong adapter fails by far.
 */
class OnnxLoraMatchesDjlTest {

    private static final int[] PROMPT = {17, 250, 3, 99, 180, 42, 7, 121, 64};

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void aBatchMixingTheBaseModelAndTwoAdaptersGivesEachSequenceDjlsLogits(Architecture arch) throws IOException {
        ModelFolder folder = withRandomAdapter(arch, 41, 5);
        ModelConfig config = folder.config();
        writePartialAdapter(config, dir.resolve("partial"));
        try (ModelRunner onnx = new OnnxEngineProvider().loadModel(folder);
                ModelRunner djl = new DjlEngineProvider().loadModel(folder)) {
            List<LoraAdapter> onnxAdapters = adapters(onnx);
            List<LoraAdapter> djlAdapters = adapters(djl);
            List<KvCache> onnxCaches = new ArrayList<>();
            List<KvCache> djlCaches = new ArrayList<>();
            List<SequenceInput> batch = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                onnxCaches.add(onnx.newCache(32));
                djlCaches.add(djl.newCache(32));
                batch.add(new SequenceInput(onnxCaches.get(i), PROMPT, true, onnxAdapters.get(i)));
            }
            List<SequenceLogits> together = onnx.forward(batch);
            int[] next = new int[3];
            for (int i = 0; i < 3; i++) {
                SequenceLogits alone = djl.forward(List.of(new SequenceInput(djlCaches.get(i), PROMPT, true,
                        djlAdapters.get(i)))).getFirst();
                for (int p = 0; p < PROMPT.length; p++) {
                    assertClose(alone.positions().get(p), together.get(i).positions().get(p),
                            arch + " sequence " + i + " position " + p);
                }
                next[i] = argmax(alone.last());
            }
            assertTrue(Logits.maxAbsDiff(together.get(0).last(), together.get(1).last()) > 0.5,
                    "the adapter must change the logits for the comparison to mean anything");
            for (int step = 0; step < 4; step++) {
                batch.clear();
                for (int i = 0; i < 3; i++) {
                    batch.add(SequenceInput.of(onnxCaches.get(i), onnxAdapters.get(i), next[i]));
                }
                together = onnx.forward(batch);
                for (int i = 0; i < 3; i++) {
                    float[] alone = djl.forward(List.of(SequenceInput.of(djlCaches.get(i), djlAdapters.get(i),
                            next[i]))).getFirst().last();
                    assertClose(alone, together.get(i).last(), arch + " decode step " + step + ", sequence " + i);
                    next[i] = argmax(alone);
                }
            }
        }
    }

    @Test
    void sequencesThatAllUseOneAdapterShareItsTensorsAndMatchDjl() throws IOException {
        ModelFolder folder = withRandomAdapter(Architecture.QWEN2, 45, 6);
        try (ModelRunner onnx = new OnnxEngineProvider().loadModel(folder);
                ModelRunner djl = new DjlEngineProvider().loadModel(folder);
                LoraAdapter a = onnx.loadAdapter(dir.resolve("all"));
                LoraAdapter b = djl.loadAdapter(dir.resolve("all"));
                KvCache first = onnx.newCache(32); KvCache second = onnx.newCache(32);
                KvCache expectedFirst = djl.newCache(32); KvCache expectedSecond = djl.newCache(32)) {
            int[] other = {5, 6, 7};
            onnx.forward(List.of(SequenceInput.of(first, a, PROMPT), SequenceInput.of(second, a, other)));
            djl.forward(List.of(SequenceInput.of(expectedFirst, b, PROMPT)));
            djl.forward(List.of(SequenceInput.of(expectedSecond, b, other)));
            List<SequenceLogits> step = onnx.forward(List.of(SequenceInput.of(first, a, 11),
                    SequenceInput.of(second, a, 12)));
            assertClose(djl.forward(List.of(SequenceInput.of(expectedFirst, b, 11))).getFirst().last(),
                    step.get(0).last(), "first sequence");
            assertClose(djl.forward(List.of(SequenceInput.of(expectedSecond, b, 12))).getFirst().last(),
                    step.get(1).last(), "second sequence");
        }
    }

    @Test
    void peftsInitialAdapterGivesExactlyTheBaseLogits() throws IOException {
        ModelFolder folder = tinyModel(Architecture.QWEN3, 43);
        TinyAdapter.writePeftInit(folder.config(), dir.resolve("init"), 9);
        try (ModelRunner onnx = new OnnxEngineProvider().loadModel(folder);
                KvCache before = onnx.newCache(32); KvCache base = onnx.newCache(32);
                KvCache adapted = onnx.newCache(32)) {
            float[] unswitched = onnx.forward(List.of(SequenceInput.of(before, PROMPT))).getFirst().last();
            try (LoraAdapter zero = onnx.loadAdapter(dir.resolve("init"))) {
                List<SequenceLogits> both = onnx.forward(List.of(SequenceInput.of(base, PROMPT),
                        SequenceInput.of(adapted, zero, PROMPT)));
                assertArrayEquals(both.get(0).last(), both.get(1).last());
                assertClose(unswitched, both.get(0).last(), "base logits before and after the first adapter");
            }
        }
    }

    @Test
    void refusesAClosedAdapterAndOneFromAnotherRunner() throws IOException {
        ModelFolder folder = withRandomAdapter(Architecture.LLAMA, 47, 5);
        try (ModelRunner onnx = new OnnxEngineProvider().loadModel(folder);
                ModelRunner other = new OnnxEngineProvider().loadModel(folder);
                KvCache cache = onnx.newCache(32); LoraAdapter foreign = other.loadAdapter(dir.resolve("all"))) {
            LoraAdapter closed = onnx.loadAdapter(dir.resolve("all"));
            closed.close();
            assertThrows(IllegalArgumentException.class,
                    () -> onnx.forward(List.of(SequenceInput.of(cache, closed, PROMPT))));
            assertThrows(IllegalArgumentException.class,
                    () -> onnx.forward(List.of(SequenceInput.of(cache, foreign, PROMPT))));
            assertTrue(cache.length() == 0, "a refused batch leaves the cache as it was");
        }
    }

    /** Base model, the every-projection adapter, the partial adapter. */
    private List<LoraAdapter> adapters(ModelRunner runner) {
        List<LoraAdapter> list = new ArrayList<>();
        list.add(null);
        list.add(runner.loadAdapter(dir.resolve("all")));
        list.add(runner.loadAdapter(dir.resolve("partial")));
        return list;
    }

    /** An adapter of q, v and down projections only, rank 4, with rsLoRA scaling. */
    private static void writePartialAdapter(ModelConfig config, Path to) throws IOException {
        LoraConfig lora = new LoraConfig(4, 8, EnumSet.of(LoraTarget.Q_PROJ, LoraTarget.V_PROJ,
                LoraTarget.DOWN_PROJ), true);
        PeftAdapterWriter writer = new PeftAdapterWriter(lora);
        Random random = new Random(77);
        for (int layer = 0; layer < config.numHiddenLayers(); layer++) {
            for (LoraTarget t : lora.targets()) {
                writer.add(layer, t, gaussian(random, 4 * t.inFeatures(config), 0.2),
                        gaussian(random, t.outFeatures(config) * 4, 0.2));
            }
        }
        writer.write(to);
    }

    private static float[] gaussian(Random random, int n, double scale) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (float) (random.nextGaussian() * scale);
        }
        return values;
    }

    /** The tiny model of {@code arch} made from {@code seed}, in the test's folder {@code model}. */
    private ModelFolder tinyModel(Architecture arch, long seed) throws IOException {
        return ModelFolder.read(TinyModel.write(arch, dir.resolve("model"), seed).dir());
    }

    /** {@link #tinyModel}, with a random adapter made from {@code adapterSeed} in the test's folder {@code all}. */
    private ModelFolder withRandomAdapter(Architecture arch, long seed, long adapterSeed) throws IOException {
        ModelFolder folder = tinyModel(arch, seed);
        TinyAdapter.writeRandom(folder.config(), dir.resolve("all"), adapterSeed);
        return folder;
    }
}
