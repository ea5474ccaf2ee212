package dev.crucible.testsupport.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineHealth;
import dev.crucible.engine.spi.EngineProvider;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.tokenizer.Tokenizer;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every engine with {@link Capability#INFERENCE} must do with a {@link ModelRunner}, checked on a tiny Qwen3
 * model: shapes, cache bookkeeping, the equivalence of prefill, decoding and batching, and the refusals the contract
 * promises, and that the model's tokenizer (hf-format's, the same for every engine) fits its logits. Numbers are
 * compared only with the engine's own other way of computing them; each engine checks its logits against an
 * independent reference in its own tests. An engine's test extends this class and names itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ModelRunnerContract {

    /** Float32 noise between two ways of computing the same logits (logits here have a spread near 4). */
    protected static final double TOLERANCE = 1e-4;
    private static final int[] PROMPT = {12, 345, 67, 89, 401, 5, 600, 233, 77, 150};

    private Path dir;
    private ModelRunner runner;

    /** The engine under test; called once per test class. */
    protected abstract EngineProvider provider();

    @BeforeAll
    void loadTinyModel(@TempDir Path dir) throws IOException {
        this.dir = dir;
        TinyModel.write(Architecture.QWEN3, dir, 11);
        runner = load();
    }

    @AfterAll
    void closeModel() {
        runner.close();
    }

    @Test
    void anEngineThatLoadsModelsOffersInferenceAndIsHealthy() {
        assertTrue(provider().capabilities().contains(Capability.INFERENCE));
        EngineHealth health = provider().health();
        assertTrue(health.ok(), health.detail());
    }

    @Test
    void logitsSpanTheVocabularyAndAreFinite() {
        try (KvCache cache = runner.newCache(16)) {
            float[] logits = forward(cache, PROMPT).last();
            assertEquals(runner.config().vocabSize(), logits.length);
            assertEquals(runner.vocabSize(), logits.length);
            for (float f : logits) {
                assertTrue(Float.isFinite(f), "logits must be finite");
            }
        }
    }

    @Test
    void theCacheGrowsByTheTokensForwarded() {
        try (KvCache cache = runner.newCache(12)) {
            assertEquals(0, cache.length());
            forward(cache, PROMPT);
            assertEquals(PROMPT.length, cache.length());
            forward(cache, 7);
            assertEquals(PROMPT.length + 1, cache.length());
            assertEquals(12 - PROMPT.length - 1, cache.remaining());
        }
    }

    @Test
    void allPositionsGivesOneRowPerNewTokenEndingWithTheLast() {
        try (KvCache cache = runner.newCache(16); KvCache other = runner.newCache(16)) {
            SequenceLogits all = runner.forward(List.of(new SequenceInput(cache, PROMPT, true))).getFirst();
            assertEquals(PROMPT.length, all.positions().size());
            assertArrayEquals(all.positions().getLast(), all.last());
            assertEquals(List.of(), forward(other, PROMPT).positions());
        }
    }

    @Test
    void decodingOneTokenAtATimeMatchesOnePrefill() {
        try (KvCache whole = runner.newCache(16); KvCache stepped = runner.newCache(16)) {
            List<float[]> expected = runner.forward(List.of(new SequenceInput(whole, PROMPT, true))).getFirst()
                    .positions();
            for (int i = 0; i < PROMPT.length; i++) {
                assertClose(expected.get(i), forward(stepped, PROMPT[i]).last(), "token " + i);
            }
        }
    }

    /**
     * An engine that keeps caches in shared buffers grows them as sequences lengthen and more caches are made; each
     * growth must carry every position a cache holds. One sequence decodes 40 tokens one at a time while three more
     * caches are made and fed partway, then its logits are held to a single prefill of the same tokens.
     */
    @Test
    void aCacheKeepsItsPositionsWhileLongerAndMoreSequencesArrive() {
        int[] tokens = new int[4 * PROMPT.length];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = PROMPT[i % PROMPT.length] + i / PROMPT.length;
        }
        List<float[]> stepped = new ArrayList<>();
        List<KvCache> others = new ArrayList<>();
        try (KvCache cache = runner.newCache(tokens.length)) {
            for (int i = 0; i < tokens.length; i++) {
                if (i % 12 == 11) {
                    KvCache other = runner.newCache(tokens.length);
                    others.add(other);
                    forward(other, Arrays.copyOf(PROMPT, 1 + i / 12));
                }
                stepped.add(forward(cache, tokens[i]).last());
            }
        } finally {
            others.forEach(KvCache::close);
        }
        try (KvCache whole = runner.newCache(tokens.length)) {
            List<float[]> expected = runner.forward(List.of(new SequenceInput(whole, tokens, true))).getFirst()
                    .positions();
            for (int i = 0; i < tokens.length; i++) {
                assertClose(expected.get(i), stepped.get(i), "token " + i);
            }
        }
    }

    /**
     * Releasing idle memory after a burst keeps what the caches still held hold, wherever the engine moves them:
     * after three of five caches are freed and the memory released, the two left decode on (together, then a new
     * cache beside them) as a single prefill of their tokens does.
     */
    @Test
    void releasingIdleMemoryKeepsTheHeldCachesWhole() {
        List<KvCache> burst = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            burst.add(runner.newCache(32));
            forward(burst.get(i), Arrays.copyOf(PROMPT, 2 + i));
        }
        KvCache second = burst.get(1);
        KvCache fourth = burst.get(3);
        try (KvCache whole = runner.newCache(32)) {
            for (int i : new int[] {0, 2, 4}) {
                burst.get(i).close();
            }
            runner.releaseIdleMemory();
            List<SequenceLogits> together = runner.forward(List.of(SequenceInput.of(second, 7),
                    SequenceInput.of(fourth, 8)));
            runner.releaseIdleMemory();
            try (KvCache fresh = runner.newCache(32)) {
                forward(fresh, PROMPT);
                int[] tokens = Arrays.copyOf(PROMPT, 6);
                tokens[5] = 8;
                assertClose(forward(whole, tokens).last(), together.get(1).last(), "a moved cache");
                assertClose(forward(fourth, 9).last(), runner.forward(List.of(SequenceInput.of(whole, 9))).getFirst()
                        .last(), "a moved cache decoding on");
                assertEquals(List.of(4, 7), List.of(second.length(), fourth.length()));
            }
        } finally {
            burst.forEach(KvCache::close);
        }
    }

    @Test
    void aSequenceGetsTheSameLogitsInABatchAsAlone() {
        int[] shortPrompt = Arrays.copyOf(PROMPT, 3);
        try (KvCache a = runner.newCache(16); KvCache b = runner.newCache(16); KvCache c = runner.newCache(16);
                KvCache aloneA = runner.newCache(16); KvCache aloneB = runner.newCache(16);
                KvCache aloneC = runner.newCache(16)) {
            forward(a, PROMPT);
            forward(aloneA, PROMPT);
            // One batch mixing a decode step (cache of 10), a prefill (empty cache) and a 3-token prefill.
            List<SequenceLogits> batch = runner.forward(List.of(SequenceInput.of(a, 42), SequenceInput.of(b, PROMPT),
                    SequenceInput.of(c, shortPrompt)));
            assertClose(forward(aloneA, 42).last(), batch.get(0).last(), "decoding sequence");
            assertClose(forward(aloneB, PROMPT).last(), batch.get(1).last(), "long prefill");
            assertClose(forward(aloneC, shortPrompt).last(), batch.get(2).last(), "short prefill");
            assertEquals(List.of(PROMPT.length + 1, PROMPT.length, 3), List.of(a.length(), b.length(), c.length()));
        }
    }

    @Test
    void aCopiedPrefixContinuesAsAFullPrefillAndStaysIndependentOfItsSource() {
        int copied = 6;
        try (KvCache whole = runner.newCache(16); KvCache source = runner.newCache(16);
                KvCache target = runner.newCache(12)) {
            List<float[]> expected = runner.forward(List.of(new SequenceInput(whole, PROMPT, true))).getFirst()
                    .positions();
            forward(source, PROMPT);
            runner.copyPrefix(source, target, copied);
            assertEquals(copied, target.length());
            assertEquals(PROMPT.length, source.length());
            forward(source, 42, 43); // writes past the copied positions of the source only
            List<float[]> rest = runner.forward(List.of(new SequenceInput(target,
                    Arrays.copyOfRange(PROMPT, copied, PROMPT.length), true))).getFirst().positions();
            for (int i = copied; i < PROMPT.length; i++) {
                assertClose(expected.get(i), rest.get(i - copied), "token " + i + " after a copied prefix");
            }
            assertEquals(PROMPT.length, target.length());
        }
    }

    @Test
    void aKeptPrefixOutlivesItsSourceAndServesCopies() {
        int keptTokens = 6;
        try (KvCache whole = runner.newCache(16); KvCache target = runner.newCache(12)) {
            List<float[]> expected = runner.forward(List.of(new SequenceInput(whole, PROMPT, true))).getFirst()
                    .positions();
            KvCache kept;
            try (KvCache source = runner.newCache(16)) {
                forward(source, PROMPT);
                kept = runner.keepPrefix(source, keptTokens);
                forward(source, 42, 43); // appends past the kept positions
            }
            try (KvCache keeper = kept; KvCache other = runner.newCache(16)) {
                forward(other, 7, 8, 9, 10, 11, 12, 13); // may take the source's freed memory, never the kept prefix's
                assertEquals(List.of(keptTokens, keptTokens), List.of(keeper.length(), keeper.capacity()));
                assertThrows(IllegalArgumentException.class, () -> forward(keeper, 1), "a kept prefix is full");
                runner.copyPrefix(keeper, target, keptTokens);
                List<float[]> rest = runner.forward(List.of(new SequenceInput(target,
                        Arrays.copyOfRange(PROMPT, keptTokens, PROMPT.length), true))).getFirst().positions();
                for (int i = keptTokens; i < PROMPT.length; i++) {
                    assertClose(expected.get(i), rest.get(i - keptTokens), "token " + i + " after a kept prefix");
                }
            }
        }
    }

    @Test
    void rejectsABadKeptPrefix() throws IOException {
        try (KvCache source = runner.newCache(16); ModelRunner other = load(); KvCache foreign = other.newCache(16)) {
            forward(source, PROMPT);
            other.forward(List.of(SequenceInput.of(foreign, new int[] {1, 2})));
            KvCache closed = runner.newCache(16);
            forward(closed, 1, 2);
            closed.close();
            assertThrows(IllegalArgumentException.class, () -> runner.keepPrefix(source, 0), "no tokens");
            assertThrows(IllegalArgumentException.class, () -> runner.keepPrefix(source, PROMPT.length + 1),
                    "more than held");
            assertThrows(IllegalArgumentException.class, () -> runner.keepPrefix(foreign, 1), "foreign");
            assertThrows(IllegalArgumentException.class, () -> runner.keepPrefix(closed, 1), "closed");
            assertEquals(PROMPT.length, source.length());
        }
    }

    @Test
    void rejectsABadPrefixCopyLeavingTheCachesUnchanged() throws IOException {
        try (KvCache source = runner.newCache(16); KvCache full = runner.newCache(16); KvCache small = runner.newCache(2);
                ModelRunner other = load(); KvCache foreign = other.newCache(16)) {
            forward(source, PROMPT);
            forward(full, 1);
            KvCache closed = runner.newCache(16);
            closed.close();
            assertThrows(IllegalArgumentException.class, () -> runner.copyPrefix(source, full, 3), "to not empty");
            assertThrows(IllegalArgumentException.class, () -> runner.copyPrefix(source, source, 3), "same cache");
            try (KvCache empty = runner.newCache(16)) {
                assertThrows(IllegalArgumentException.class, () -> runner.copyPrefix(source, empty, 0), "no tokens");
                assertThrows(IllegalArgumentException.class, () -> runner.copyPrefix(source, empty, PROMPT.length + 1),
                        "more than held");
                assertThrows(IllegalArgumentException.class, () -> runner.copyPrefix(source, small, 3), "capacity");
                assertThrows(IllegalArgumentException.class, () -> runner.copyPrefix(foreign, empty, 0), "foreign");
                assertThrows(IllegalArgumentException.class, () -> runner.copyPrefix(source, closed, 3), "closed");
                assertEquals(0, empty.length());
            }
            assertEquals(List.of(PROMPT.length, 1, 0), List.of(source.length(), full.length(), small.length()));
        }
    }

    @Test
    void rejectsAnEmptyBatch() {
        assertThrows(IllegalArgumentException.class, () -> runner.forward(List.of()));
    }

    @Test
    void rejectsATokenOutsideTheVocabularyLeavingEveryCacheUnchanged() {
        try (KvCache good = runner.newCache(16); KvCache bad = runner.newCache(16)) {
            var e = assertThrows(IllegalArgumentException.class, () -> runner.forward(List.of(
                    SequenceInput.of(good, PROMPT), SequenceInput.of(bad, 1, runner.vocabSize()))));
            assertTrue(e.getMessage().contains(String.valueOf(runner.vocabSize())), e.getMessage());
            assertEquals(0, good.length());
            assertEquals(0, bad.length());
            assertThrows(IllegalArgumentException.class, () -> forward(bad, -1));
        }
    }

    @Test
    void rejectsMoreTokensThanTheCacheHasRoomFor() {
        try (KvCache cache = runner.newCache(PROMPT.length)) {
            forward(cache, Arrays.copyOf(PROMPT, 4));
            var e = assertThrows(IllegalArgumentException.class, () -> forward(cache, PROMPT));
            assertTrue(e.getMessage().contains("room"), e.getMessage());
            assertEquals(4, cache.length());
            forward(cache, Arrays.copyOfRange(PROMPT, 4, PROMPT.length));
            assertEquals(0, cache.remaining());
        }
    }

    @Test
    void rejectsTheSameCacheTwiceInOneBatch() {
        try (KvCache cache = runner.newCache(16)) {
            assertThrows(IllegalArgumentException.class, () -> runner.forward(List.of(SequenceInput.of(cache, 1),
                    SequenceInput.of(cache, 2))));
            assertEquals(0, cache.length());
        }
    }

    @Test
    void rejectsAClosedCacheAndClosingTwiceIsHarmless() {
        KvCache cache = runner.newCache(16);
        cache.close();
        assertDoesNotThrow(cache::close);
        assertThrows(IllegalArgumentException.class, () -> forward(cache, 1));
    }

    @Test
    void rejectsACacheMadeByAnotherRunner() throws IOException {
        try (ModelRunner other = load(); KvCache foreign = other.newCache(16)) {
            assertThrows(IllegalArgumentException.class, () -> forward(foreign, 1));
            assertEquals(0, foreign.length());
        }
    }

    @Test
    void rejectsACacheCapacityOutsideOneToMaxPositionEmbeddings() {
        assertThrows(IllegalArgumentException.class, () -> runner.newCache(0));
        assertThrows(IllegalArgumentException.class,
                () -> runner.newCache(runner.config().maxPositionEmbeddings() + 1));
    }

    @Test
    void aClosedRunnerRefusesWorkAndFreesItsCaches() throws IOException {
        ModelRunner closing = load();
        KvCache cache = closing.newCache(16);
        closing.close();
        assertDoesNotThrow(closing::close);
        assertDoesNotThrow(cache::close);
        assertThrows(IllegalStateException.class, () -> closing.newCache(16));
        assertThrows(IllegalStateException.class, () -> closing.forward(List.of(SequenceInput.of(cache, 1))));
    }

    /** The one tokenizer (hf-format's, whatever the engine) gives only ids the engine has logits for. */
    @Test
    void everyIdOfTheModelsTokenizerHasALogit() throws IOException {
        String chat = "<|im_start|>user\nHi, ünïcödé 😀<|im_end|>\n<|im_start|>assistant\n";
        try (Tokenizer tokenizer = Tokenizer.load(dir.resolve("tokenizer.json"));
                KvCache cache = runner.newCache(32)) {
            int[] ids = tokenizer.encode(chat, false);
            assertTrue(tokenizer.vocabSize() <= runner.vocabSize(), "every token id must have a logit");
            assertEquals(runner.vocabSize(), forward(cache, ids).last().length);
        }
    }

    private ModelRunner load() throws IOException {
        return provider().loadModel(ModelFolder.read(dir));
    }

    private SequenceLogits forward(KvCache cache, int... tokens) {
        return runner.forward(List.of(SequenceInput.of(cache, tokens))).getFirst();
    }

    private static void assertClose(float[] expected, float[] actual, String what) {
        assertEquals(expected.length, actual.length, what);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], TOLERANCE, what + ", logit " + i);
        }
    }
}
