package dev.crucible.engine.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * A batched decode gathers its sequences' rows next to each other ({@link OnnxKvPool#gather}) so that the rows of
 * idle caches between them (a prefix cache's copies, paused sequences) are not computed: whatever the layout, the
 * decoding sequences get the logits they get alone, the idle caches continue as if nothing had moved, and the
 * decoding rows end adjacent.
 */
class OnnxKvPoolGatherTest {

    private static final double TOLERANCE = 1e-4;
    private static Path dir;
    private static ModelRunner runner;

    @BeforeContainer
    static void load() throws IOException {
        dir = Files.createTempDirectory("gather");
        runner = new OnnxEngineProvider().loadModel(ModelFolder.read(TinyModel.write(Architecture.QWEN2, dir, 61)
                .dir()));
    }

    @AfterContainer
    static void close() throws IOException {
        runner.close();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** Each cache's prompt, and whether it decodes in the batch; at least one does. */
    record Layout(List<int[]> prompts, List<Boolean> decoding) {
    }

    @Provide
    Arbitrary<Layout> layouts() {
        Arbitrary<int[]> prompt = Arbitraries.integers().between(0, 500).array(int[].class).ofMinSize(1).ofMaxSize(6);
        return Arbitraries.integers().between(2, 8).flatMap(n -> Combinators.combine(prompt.list().ofSize(n),
                Arbitraries.of(true, false).list().ofSize(n)).as(Layout::new))
                .filter(l -> l.decoding().contains(true));
    }

    @Property(tries = 40)
    void decodingSequencesEndAdjacentAndEveryCacheKeepsItsPositions(@ForAll("layouts") Layout layout) {
        int n = layout.prompts().size();
        List<KvCache> caches = new ArrayList<>();
        List<KvCache> twins = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                caches.add(runner.newCache(16));
                forward(caches.get(i), layout.prompts().get(i));
            }
            for (int i = 0; i < n; i++) {
                twins.add(runner.newCache(16));
                forward(twins.get(i), layout.prompts().get(i));
            }
            List<Integer> members = IntStream.range(0, n).filter(i -> layout.decoding().get(i)).boxed().toList();
            List<SequenceLogits> batch = runner.forward(members.stream()
                    .map(i -> SequenceInput.of(caches.get(i), 42)).toList());

            int lowest = members.stream().mapToInt(i -> slot(caches.get(i))).min().orElseThrow();
            int highest = members.stream().mapToInt(i -> slot(caches.get(i))).max().orElseThrow();
            assertEquals(members.size() - 1, highest - lowest, "the decoding rows are adjacent");
            for (int m = 0; m < members.size(); m++) {
                assertClose(forward(twins.get(members.get(m)), 42).last(), batch.get(m).last(), "decoding " + m);
            }
            // every cache and its twin now hold the same tokens (the members' with 42 after their prompt)
            for (int i = 0; i < n; i++) {
                assertClose(forward(twins.get(i), 9).last(), forward(caches.get(i), 9).last(), "cache " + i
                        + " afterwards");
            }
        } finally {
            caches.forEach(KvCache::close);
            twins.forEach(KvCache::close);
        }
    }

    private static int slot(KvCache cache) {
        return ((OnnxKvCache) cache).slot();
    }

    private static SequenceLogits forward(KvCache cache, int[] tokens) {
        return runner.forward(List.of(SequenceInput.of(cache, tokens))).getFirst();
    }

    private static SequenceLogits forward(KvCache cache, int token) {
        return forward(cache, new int[] {token});
    }

    private static void assertClose(float[] expected, float[] actual, String what) {
        assertEquals(expected.length, actual.length, what);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], TOLERANCE, what + ", logit " + i);
        }
    }
}
