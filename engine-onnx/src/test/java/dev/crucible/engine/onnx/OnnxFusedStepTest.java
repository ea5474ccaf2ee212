package dev.crucible.engine.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.arbitraries.ArrayArbitrary;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * A step that decodes some sequences while prefilling prompts runs the decoding rows and the first prompt piece in one
 * run ({@link OnnxRun#plan}): every sequence gets the logits it gets alone, and its cache holds what a forward alone
 * writes, so all of them decode on alike afterwards. Generated batches: the caches' lengths, which of them decode, how
 * many prompts join (none, one, two) and whether a prompt is a fresh prefill or a later chunk, whether it wants every
 * position's logits; over a Qwen2 model (q, k and v packed) and a Qwen3 one (split for their norms).
 */
class OnnxFusedStepTest {

    private static final double TOLERANCE = 1e-4;
    private static final int CAPACITY = 40;
    private static Path dir;
    private static final Map<Architecture, OnnxModelRunner> RUNNERS = new EnumMap<>(Architecture.class);

    @BeforeContainer
    static void load() throws IOException {
        dir = Files.createTempDirectory("fused-step");
        for (Architecture a : new Architecture[] {Architecture.QWEN2, Architecture.QWEN3}) {
            RUNNERS.put(a, (OnnxModelRunner) new OnnxEngineProvider().loadModel(ModelFolder.read(TinyModel.write(a,
                    dir.resolve(a.name()), 71).dir())));
        }
    }

    @AfterContainer
    static void close() throws IOException {
        RUNNERS.values().forEach(OnnxModelRunner::close);
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** One sequence of the step: the tokens its cache holds first, and what it forwards in the step. */
    record Part(int[] held, int[] step, boolean allPositions) {
    }

    @Provide
    Arbitrary<List<Part>> steps() {
        ArrayArbitrary<Integer, int[]> tokens = Arbitraries.integers().between(0, 60)
                .array(int[].class);
        Arbitrary<Part> decoding = tokens.ofMinSize(1).ofMaxSize(12).flatMap(held -> tokens.ofSize(1)
                .map(step -> new Part(held, step, false)));
        Arbitrary<Part> prompt = tokens.ofMinSize(0).ofMaxSize(12).flatMap(held -> tokens.ofMinSize(2).ofMaxSize(9)
                .flatMap(step -> Arbitraries.of(true, false).map(all -> new Part(held, step, all))));
        return Arbitraries.oneOf(decoding, decoding, prompt).list().ofMinSize(1).ofMaxSize(6);
    }

    @Property(tries = 40)
    void aFusedStepGivesEverySequenceWhatItGetsAlone(@ForAll("steps") List<Part> parts, @ForAll boolean qwen3) {
        OnnxModelRunner runner = RUNNERS.get(qwen3 ? Architecture.QWEN3 : Architecture.QWEN2);
        List<KvCache> together = new ArrayList<>();
        List<KvCache> alone = new ArrayList<>();
        try {
            for (Part p : parts) {
                together.add(prefilled(runner, p.held()));
                alone.add(prefilled(runner, p.held()));
            }
            List<SequenceInput> batch = new ArrayList<>();
            for (int i = 0; i < parts.size(); i++) {
                batch.add(new SequenceInput(together.get(i), parts.get(i).step(), parts.get(i).allPositions()));
            }
            List<SequenceLogits> step = runner.forward(batch);
            for (int i = 0; i < parts.size(); i++) {
                Part p = parts.get(i);
                SequenceLogits expected = runner.forward(List.of(new SequenceInput(alone.get(i), p.step(),
                        p.allPositions()))).getFirst();
                assertClose(expected.last(), step.get(i).last(), "sequence " + i);
                assertEquals(expected.positions().size(), step.get(i).positions().size());
                for (int t = 0; t < expected.positions().size(); t++) {
                    assertClose(expected.positions().get(t), step.get(i).positions().get(t), "sequence " + i
                            + " position " + t);
                }
                assertEquals(p.held().length + p.step().length, together.get(i).length());
            }
            // what the step wrote: every sequence decodes on, all together, as its twin does alone
            List<SequenceInput> next = new ArrayList<>();
            for (KvCache c : together) {
                next.add(SequenceInput.of(c, 5));
            }
            List<SequenceLogits> after = runner.forward(next);
            for (int i = 0; i < parts.size(); i++) {
                assertClose(runner.forward(List.of(SequenceInput.of(alone.get(i), 5))).getFirst().last(),
                        after.get(i).last(), "sequence " + i + " decoding on");
            }
        } finally {
            together.forEach(KvCache::close);
            alone.forEach(KvCache::close);
        }
    }

    private static KvCache prefilled(OnnxModelRunner runner, int[] tokens) {
        KvCache cache = runner.newCache(CAPACITY);
        if (tokens.length > 0) {
            runner.forward(List.of(SequenceInput.of(cache, tokens)));
        }
        return cache;
    }

    private static void assertClose(float[] expected, float[] actual, String what) {
        assertEquals(expected.length, actual.length, what);
        double worst = 0;
        for (int i = 0; i < expected.length; i++) {
            worst = Math.max(worst, Math.abs(expected[i] - actual[i]));
        }
        assertTrue(worst <= TOLERANCE, what + ": logits differ by " + worst + " (" + Arrays.toString(
                Arrays.copyOf(actual, 3)) + " against " + Arrays.toString(Arrays.copyOf(expected, 3)) + ")");
    }
}
