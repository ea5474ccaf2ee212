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
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * A prefix kept on its source's row ({@link OnnxModelRunner#keepPrefix}) holds its positions whatever happens to the
 * pool afterwards: the source decoding on and being freed (the row passes to the prefix), other caches taking freed
 * rows, the pool growing in rows and positions, batched decodes swapping rows to gather theirs, the idle pool shrinking.
 * Each kept prefix, copied into a fresh cache at the end, continues as a fresh prefill of its tokens does.
 */
class OnnxKeptPrefixTest {

    private static final double TOLERANCE = 1e-4;
    private static final int CAPACITY = 24;
    private static Path dir;
    private static OnnxModelRunner runner;

    @BeforeContainer
    static void load() throws IOException {
        dir = Files.createTempDirectory("kept-prefix");
        runner = (OnnxModelRunner) new OnnxEngineProvider().loadModel(ModelFolder.read(TinyModel.write(
                Architecture.QWEN2, dir, 67).dir()));
    }

    @AfterContainer
    static void close() throws IOException {
        runner.close();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** A cache and the tokens it holds; {@code kept} for a kept prefix, which is never forwarded. */
    private record Held(KvCache cache, List<Integer> tokens, boolean kept) {
    }

    @Provide
    Arbitrary<List<int[]>> scripts() {
        return Arbitraries.integers().between(0, 1_000).array(int[].class).ofSize(3).list().ofMinSize(4)
                .ofMaxSize(24);
    }

    /**
     * Each step is {@code [operation, a, b]}: 0-1 a new cache with a prompt of {@code 1 + b % 6} tokens, 2 keep a
     * prefix of a live cache, 3 one batched decode of the forwardable caches chosen by the bits of {@code b}, 4 close a
     * cache or prefix, 5 the idle pool shrinking.
     */
    @Property(tries = 30)
    void keptPrefixesSurviveEverythingThePoolDoes(@ForAll("scripts") List<int[]> script) {
        List<Held> live = new ArrayList<>();
        try {
            for (int[] step : script) {
                apply(live, step);
            }
            for (Held h : live) {
                if (h.kept()) {
                    checkContinues(h);
                }
            }
        } finally {
            live.forEach(h -> h.cache().close());
        }
    }

    private static void apply(List<Held> live, int[] step) {
        List<Held> forwardable = live.stream().filter(h -> !h.kept() && h.cache().remaining() > 0).toList();
        switch (step[0] % 6) {
            case 0, 1 -> {
                int[] prompt = new int[1 + step[2] % 6];
                Arrays.setAll(prompt, i -> (step[1] + 37 * i) % 400);
                KvCache cache = runner.newCache(CAPACITY);
                forward(cache, prompt);
                live.add(new Held(cache, new ArrayList<>(Arrays.stream(prompt).boxed().toList()), false));
            }
            case 2 -> {
                List<Held> sources = live.stream().filter(h -> !h.kept()).toList();
                if (!sources.isEmpty()) {
                    Held source = sources.get(step[1] % sources.size());
                    int tokens = 1 + step[2] % source.cache().length();
                    live.add(new Held(runner.keepPrefix(source.cache(), tokens),
                            new ArrayList<>(source.tokens().subList(0, tokens)), true));
                }
            }
            case 3 -> {
                List<Held> chosen = new ArrayList<>();
                for (int i = 0; i < forwardable.size(); i++) {
                    if ((step[2] >> (i % 10) & 1) == 1) {
                        chosen.add(forwardable.get(i));
                    }
                }
                if (!chosen.isEmpty()) {
                    int token = step[1] % 400;
                    runner.forward(chosen.stream().map(h -> SequenceInput.of(h.cache(), token)).toList());
                    chosen.forEach(h -> h.tokens().add(token));
                }
            }
            case 4 -> {
                if (!live.isEmpty()) {
                    live.remove(step[1] % live.size()).cache().close();
                }
            }
            default -> runner.releaseIdleMemory();
        }
    }

    private static void checkContinues(Held kept) {
        int[] tokens = kept.tokens().stream().mapToInt(Integer::intValue).toArray();
        try (KvCache restored = runner.newCache(CAPACITY); KvCache fresh = runner.newCache(CAPACITY)) {
            runner.copyPrefix(kept.cache(), restored, tokens.length);
            forward(fresh, tokens);
            float[] expected = forward(fresh, 9).last();
            float[] actual = forward(restored, 9).last();
            for (int i = 0; i < expected.length; i++) {
                assertEquals(expected[i], actual[i], TOLERANCE, "a kept prefix of " + tokens.length + " tokens, logit "
                        + i);
            }
        }
    }

    private static SequenceLogits forward(KvCache cache, int[] tokens) {
        return runner.forward(List.of(SequenceInput.of(cache, tokens))).getFirst();
    }

    private static SequenceLogits forward(KvCache cache, int token) {
        return forward(cache, new int[] {token});
    }
}
