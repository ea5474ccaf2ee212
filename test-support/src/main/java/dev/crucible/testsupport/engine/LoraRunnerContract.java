package dev.crucible.testsupport.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineProvider;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.LoraAdapter;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.tiny.TinyAdapter;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every engine with {@link Capability#LORA_INFERENCE} must do with PEFT adapters, on a tiny Qwen3 model: an
 * adapter at PEFT's initialisation (B = 0) gives exactly the base logits, a trained one changes them, a batch mixing
 * the base model and two adapters gives each sequence what it gets alone (prefill and decoding), and closed or foreign
 * adapters are refused before anything is computed. As in {@link ModelRunnerContract}, numbers are compared only with
 * the engine's own other way of computing them. An engine's test extends this class and names itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class LoraRunnerContract {

    private static final int[] PROMPT = {12, 345, 67, 89, 401, 5, 600, 233};

    private Path dir;
    private ModelRunner runner;
    private LoraAdapter first;
    private LoraAdapter second;

    /** The engine under test; called once per test class. */
    protected abstract EngineProvider provider();

    @BeforeAll
    void loadTinyModelAndAdapters(@TempDir Path dir) throws IOException {
        this.dir = dir;
        TinyModel model = TinyModel.write(Architecture.QWEN3, dir.resolve("model"), 17);
        TinyAdapter.writeRandom(model.config(), dir.resolve("first"), 3);
        TinyAdapter.writeRandom(model.config(), dir.resolve("second"), 4);
        TinyAdapter.writePeftInit(model.config(), dir.resolve("init"), 5);
        runner = provider().loadModel(ModelFolder.read(model.dir()));
        first = runner.loadAdapter(dir.resolve("first"));
        second = runner.loadAdapter(dir.resolve("second"));
    }

    @AfterAll
    void closeModel() {
        runner.close();
    }

    @Test
    void theEngineOffersLoraInference() {
        assertTrue(provider().capabilities().contains(Capability.LORA_INFERENCE));
        assertEquals(TinyAdapter.RANK, first.rank());
    }

    @Test
    void anAdapterAtPeftsInitialisationGivesExactlyTheBaseLogits() {
        try (LoraAdapter init = runner.loadAdapter(dir.resolve("init")); KvCache base = runner.newCache(16);
                KvCache adapted = runner.newCache(16)) {
            List<SequenceLogits> out = runner.forward(List.of(SequenceInput.of(base, PROMPT),
                    SequenceInput.of(adapted, init, PROMPT)));
            assertArrayEquals(out.get(0).last(), out.get(1).last());
        }
    }

    @Test
    void aBatchMixingTheBaseModelAndTwoAdaptersGivesEachSequenceWhatItGetsAlone() {
        List<LoraAdapter> adapters = java.util.Arrays.asList(null, first, second);
        try (KvCache a = runner.newCache(16); KvCache b = runner.newCache(16); KvCache c = runner.newCache(16);
                KvCache aloneA = runner.newCache(16); KvCache aloneB = runner.newCache(16);
                KvCache aloneC = runner.newCache(16)) {
            List<KvCache> batched = List.of(a, b, c);
            List<KvCache> alone = List.of(aloneA, aloneB, aloneC);
            List<SequenceLogits> prefill = runner.forward(List.of(SequenceInput.of(a, null, PROMPT),
                    SequenceInput.of(b, first, PROMPT), SequenceInput.of(c, second, PROMPT)));
            List<SequenceLogits> decode = runner.forward(List.of(SequenceInput.of(a, null, 7),
                    SequenceInput.of(b, first, 7), SequenceInput.of(c, second, 7)));
            for (int i = 0; i < 3; i++) {
                float[] expected = runner.forward(List.of(SequenceInput.of(alone.get(i), adapters.get(i), PROMPT)))
                        .getFirst().last();
                assertClose(expected, prefill.get(i).last(), "prefill of sequence " + i);
                assertClose(runner.forward(List.of(SequenceInput.of(alone.get(i), adapters.get(i), 7))).getFirst()
                        .last(), decode.get(i).last(), "decoding of sequence " + i);
                assertEquals(PROMPT.length + 1, batched.get(i).length());
            }
            assertTrue(Logits.maxAbsDiff(prefill.get(0).last(), prefill.get(1).last()) > 100 * ModelRunnerContract.TOLERANCE,
                    "a trained adapter changes the logits");
            assertTrue(Logits.maxAbsDiff(prefill.get(1).last(), prefill.get(2).last()) > 100 * ModelRunnerContract.TOLERANCE,
                    "two adapters give different logits");
        }
    }

    @Test
    void refusesAClosedAdapterAndOneFromAnotherRunnerLeavingTheCacheUnchanged() throws IOException {
        LoraAdapter closed = runner.loadAdapter(dir.resolve("first"));
        closed.close();
        try (ModelRunner other = provider().loadModel(ModelFolder.read(dir.resolve("model")));
                LoraAdapter foreign = other.loadAdapter(dir.resolve("first")); KvCache cache = runner.newCache(16)) {
            assertThrows(IllegalArgumentException.class,
                    () -> runner.forward(List.of(SequenceInput.of(cache, closed, PROMPT))));
            assertThrows(IllegalArgumentException.class,
                    () -> runner.forward(List.of(SequenceInput.of(cache, foreign, PROMPT))));
            assertEquals(0, cache.length());
        }
    }

    private static void assertClose(float[] expected, float[] actual, String what) {
        Logits.assertClose(expected, actual, ModelRunnerContract.TOLERANCE, what);
    }
}
