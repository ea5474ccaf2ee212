package dev.crucible.engine.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.engine.djl.DjlEngineProvider;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.tiny.TinyModel;
import dev.crucible.testsupport.engine.Logits;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The onnx engine against the djl engine on the same tiny random model of each architecture (djl is checked against an
 * independent NumPy port of transformers in its own tests). Both compute in F32, in different orders, so their logits
 * differ by float noise only. Measured: at most about 1e-5 (logits have a spread near 4); a wrong rotary table, norm
 * or mask moves logits by more than 0.1.
 */
class OnnxMatchesDjlTest {

    /** Largest absolute logit difference allowed between the engines at F32. */
    static final double TOLERANCE = 1e-4;
    private static final long SEED = 23;
    private static final int GREEDY_STEPS = 24;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void prefillLogitsOfEveryPositionMatchDjl(Architecture arch) throws IOException {
        int[] prompt = prompt(arch, 40, 1);
        try (Engines e = Engines.load(arch, dir); Caches c = e.newCaches(64)) {
            List<float[]> expected = all(e.djl, c.djl, prompt);
            List<float[]> actual = all(e.onnx, c.onnx, prompt);
            double max = 0;
            for (int i = 0; i < prompt.length; i++) {
                max = Math.max(max, assertClose(expected.get(i), actual.get(i), arch + " position " + i));
            }
            System.out.printf("%s prefill of %d: max |onnx - djl| %.2e%n", arch, prompt.length, max);
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void greedyDecodingGivesTheSameTokensAndLogitsAsDjl(Architecture arch) throws IOException {
        int[] prompt = prompt(arch, 9, 2);
        try (Engines e = Engines.load(arch, dir)) {
            int[] onnxTokens = greedy(e.onnx, prompt, e.djl, arch);
            System.out.printf("%s greedy: %s%n", arch, java.util.Arrays.toString(onnxTokens));
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void aBatchOfDecodingAndPrefillingSequencesMatchesDjlAlone(Architecture arch) throws IOException {
        List<int[]> prompts = List.of(prompt(arch, 12, 3), prompt(arch, 5, 4), prompt(arch, 9, 5), prompt(arch, 1, 6));
        try (Engines e = Engines.load(arch, dir)) {
            List<KvCache> onnx = new ArrayList<>();
            List<KvCache> djl = new ArrayList<>();
            for (int i = 0; i < prompts.size(); i++) {
                onnx.add(e.onnx.newCache(48));
                djl.add(e.djl.newCache(48));
            }
            // Prefill all four in one forward, then three decode steps in which all four decode together.
            List<SequenceInput> batch = new ArrayList<>();
            for (int i = 0; i < prompts.size(); i++) {
                batch.add(SequenceInput.of(onnx.get(i), prompts.get(i)));
            }
            List<SequenceLogits> together = e.onnx.forward(batch);
            int[] next = new int[prompts.size()];
            for (int i = 0; i < prompts.size(); i++) {
                float[] alone = e.djl.forward(List.of(SequenceInput.of(djl.get(i), prompts.get(i)))).getFirst().last();
                assertClose(alone, together.get(i).last(), arch + " prefill " + i);
                next[i] = Logits.argmax(alone);
            }
            for (int step = 0; step < 3; step++) {
                batch.clear();
                for (int i = 0; i < prompts.size(); i++) {
                    batch.add(SequenceInput.of(onnx.get(i), next[i]));
                }
                together = e.onnx.forward(batch);
                for (int i = 0; i < prompts.size(); i++) {
                    float[] alone = e.djl.forward(List.of(SequenceInput.of(djl.get(i), next[i]))).getFirst().last();
                    assertClose(alone, together.get(i).last(), arch + " decode step " + step + ", sequence " + i);
                    next[i] = Logits.argmax(alone);
                    assertEquals(prompts.get(i).length + step + 1, onnx.get(i).length());
                }
            }
            onnx.forEach(KvCache::close);
            djl.forEach(KvCache::close);
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void aLongPromptIsPrefilledInOneRunAndDecodingContinuesFromIt(Architecture arch) throws IOException {
        int[] prompt = prompt(arch, 300, 7);
        try (Engines e = Engines.load(arch, dir); Caches c = e.newCaches(512)) {
            float[] expected = e.djl.forward(List.of(SequenceInput.of(c.djl, prompt))).getFirst().last();
            assertClose(expected, e.onnx.forward(List.of(SequenceInput.of(c.onnx, prompt))).getFirst().last(),
                    arch + " prefill of 300");
            int next = Logits.argmax(expected);
            assertClose(e.djl.forward(List.of(SequenceInput.of(c.djl, next))).getFirst().last(),
                    e.onnx.forward(List.of(SequenceInput.of(c.onnx, next))).getFirst().last(), arch + " decode at 300");
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void cachesKeepTheirKeysAndValuesWhileThePoolGrowsInRowsAndLength(Architecture arch) throws IOException {
        try (Engines e = Engines.load(arch, dir)) {
            List<KvCache> onnx = new ArrayList<>();
            List<KvCache> djl = new ArrayList<>();
            int[] next = new int[5];
            // Five caches made one after another (rows 1, 2, 4, 8), each prefilled before the next exists.
            for (int i = 0; i < 5; i++) {
                onnx.add(e.onnx.newCache(80));
                djl.add(e.djl.newCache(80));
                int[] prompt = prompt(arch, 6 + i, 10 + i);
                float[] expected = e.djl.forward(List.of(SequenceInput.of(djl.get(i), prompt))).getFirst().last();
                assertClose(expected, e.onnx.forward(List.of(SequenceInput.of(onnx.get(i), prompt))).getFirst().last(),
                        arch + " prefill " + i);
                next[i] = Logits.argmax(expected);
            }
            // Decoding all five together past 16, 32 and 64 positions: the rows lengthen three times under them.
            for (int step = 0; step < 60; step++) {
                List<SequenceInput> batch = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    batch.add(SequenceInput.of(onnx.get(i), next[i]));
                }
                List<SequenceLogits> together = e.onnx.forward(batch);
                for (int i = 0; i < 5; i++) {
                    float[] alone = e.djl.forward(List.of(SequenceInput.of(djl.get(i), next[i]))).getFirst().last();
                    assertClose(alone, together.get(i).last(), arch + " step " + step + ", sequence " + i);
                    next[i] = Logits.argmax(alone);
                }
            }
            onnx.forEach(KvCache::close);
            djl.forEach(KvCache::close);
        }
    }

    /** Greedy decoding on both engines, each feeding its own choice back; they must choose alike at every step. */
    private static int[] greedy(ModelRunner onnx, int[] prompt, ModelRunner djl, Architecture arch) {
        int[] tokens = new int[GREEDY_STEPS];
        try (KvCache a = onnx.newCache(64); KvCache b = djl.newCache(64)) {
            float[] x = onnx.forward(List.of(SequenceInput.of(a, prompt))).getFirst().last();
            float[] y = djl.forward(List.of(SequenceInput.of(b, prompt))).getFirst().last();
            for (int step = 0; step < GREEDY_STEPS; step++) {
                assertClose(y, x, arch + " greedy step " + step);
                tokens[step] = Logits.argmax(x);
                assertEquals(Logits.argmax(y), tokens[step], arch + " greedy token " + step);
                x = onnx.forward(List.of(SequenceInput.of(a, tokens[step]))).getFirst().last();
                y = djl.forward(List.of(SequenceInput.of(b, Logits.argmax(y)))).getFirst().last();
            }
        }
        return tokens;
    }

    private static List<float[]> all(ModelRunner runner, KvCache cache, int[] tokens) {
        return runner.forward(List.of(new SequenceInput(cache, tokens, true))).getFirst().positions();
    }

    private static int[] prompt(Architecture arch, int length, long salt) {
        Random random = new Random(arch.ordinal() * 1000L + salt);
        int[] ids = new int[length];
        for (int i = 0; i < length; i++) {
            ids[i] = random.nextInt(200);
        }
        return ids;
    }

    static double assertClose(float[] expected, float[] actual, String what) {
        return Logits.assertClose(expected, actual, TOLERANCE, what);
    }

    /** The same tiny model loaded by both engines. */
    private record Engines(ModelRunner onnx, ModelRunner djl) implements AutoCloseable {

        static Engines load(Architecture arch, Path dir) throws IOException {
            TinyModel.write(arch, dir, SEED);
            ModelFolder folder = ModelFolder.read(dir);
            ModelRunner onnx = new OnnxEngineProvider().loadModel(folder);
            try {
                return new Engines(onnx, new DjlEngineProvider().loadModel(folder));
            } catch (RuntimeException ex) {
                onnx.close();
                throw ex;
            }
        }

        /** A cache of {@code capacity} tokens on each engine. */
        Caches newCaches(int capacity) {
            KvCache onnxCache = onnx.newCache(capacity);
            try {
                return new Caches(onnxCache, djl.newCache(capacity));
            } catch (RuntimeException ex) {
                onnxCache.close();
                throw ex;
            }
        }

        @Override
        public void close() {
            onnx.close();
            djl.close();
        }
    }

    /** One cache on each engine, for the same sequence. */
    private record Caches(KvCache onnx, KvCache djl) implements AutoCloseable {

        @Override
        public void close() {
            djl.close();
            onnx.close();
        }
    }
}
