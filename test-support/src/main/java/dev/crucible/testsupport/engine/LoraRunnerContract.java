package dev.crucible.testsupport.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.EngineProvider;
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
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.tiny.TinyAdapter;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every engine with {@link Capability#LORA_INFERENCE} must do with PEFT adapters, on a tiny Qwen3 model: an
 * adapter at PEFT's initialisation (B = 0) gives exactly the base logits, a trained one changes them, a batch mixing
 * the base model and two adapters gives each sequence what it gets alone (prefill and decoding), and closed or foreign
 * adapters are refused before anything is computed. An adapter of the unembedding ({@code lm_head}, Tinker's
 * {@code train_unembed}) adds its delta to the logits (checked against the base logits with an adapter whose head
 * delta equals them), also in mixed batches with prompt logprobs; an engine that does not apply it refuses it at load.
 * Otherwise, as in {@link ModelRunnerContract}, numbers are compared only with the engine's own other way of computing
 * them. An engine's test extends this class and names itself.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class LoraRunnerContract {

    private static final int[] PROMPT = {12, 345, 67, 89, 401, 5, 600, 233};

    private Path dir;
    private ModelConfig model;
    private ModelRunner runner;
    private LoraAdapter first;
    private LoraAdapter second;

    /** The engine under test; called once per test class. */
    protected abstract EngineProvider provider();

    /**
     * Whether the engine applies a LoRA of {@code lm_head}; one that does not must refuse such an adapter at load with
     * an {@link EngineException} naming {@code lm_head}, never ignore it.
     */
    protected boolean appliesTheHead() {
        return true;
    }

    @BeforeAll
    void loadTinyModelAndAdapters(@TempDir Path dir) throws IOException {
        this.dir = dir;
        TinyModel model = TinyModel.write(Architecture.QWEN3, dir.resolve("model"), 17);
        this.model = model.config();
        TinyAdapter.writeRandom(model.config(), dir.resolve("first"), 3);
        TinyAdapter.writeRandom(model.config(), dir.resolve("second"), 4);
        TinyAdapter.writePeftInit(model.config(), dir.resolve("init"), 5);
        TinyAdapter.writeRandomWithHead(model.config(), dir.resolve("headed"), 6);
        writeHeadDoubling(model, dir.resolve("doubling"));
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

    /**
     * An adapter of {@code lm_head} alone whose delta is the base logits: {@code A} the identity ({@code r} = hidden
     * size), {@code B} the head's weight, scaling 1, so the adapted logits are exactly twice the base ones.
     */
    private static void writeHeadDoubling(TinyModel model, Path folder) throws IOException {
        int hidden = model.config().hiddenSize();
        LoraConfig config = new LoraConfig(hidden, hidden, EnumSet.of(LoraTarget.LM_HEAD), false);
        float[] identity = new float[hidden * hidden];
        for (int i = 0; i < hidden; i++) {
            identity[i * hidden + i] = 1;
        }
        try (SafetensorsReader weights = SafetensorsReader.open(model.dir().resolve("model.safetensors"))) {
            float[] head = weights.floats(model.config().tieWordEmbeddings() ? "model.embed_tokens.weight"
                    : "lm_head.weight");
            new PeftAdapterWriter(config).add(0, LoraTarget.LM_HEAD, identity, head).write(folder);
        }
    }

    @Test
    void anAdapterOfTheHeadAddsItsDeltaToTheLogitsOrIsRefusedAtLoad() {
        if (!appliesTheHead()) {
            EngineException e = assertThrows(EngineException.class, () -> runner.loadAdapter(dir.resolve("doubling")));
            assertTrue(e.getMessage().contains("lm_head"), e.getMessage());
            return;
        }
        try (LoraAdapter doubling = runner.loadAdapter(dir.resolve("doubling")); KvCache base = runner.newCache(16);
                KvCache adapted = runner.newCache(16)) {
            List<SequenceLogits> out = runner.forward(List.of(new SequenceInput(base, PROMPT, true),
                    new SequenceInput(adapted, PROMPT, true, doubling)));
            for (int i = 0; i < PROMPT.length; i++) {
                float[] expected = out.get(0).positions().get(i).clone();
                for (int v = 0; v < expected.length; v++) {
                    expected[v] *= 2;
                }
                assertClose(expected, out.get(1).positions().get(i), "position " + i);
            }
        }
    }

    @Test
    void aBatchMixingHeadAndLayerAdaptersWithPromptLogprobsGivesEachSequenceWhatItGetsAlone() {
        Assumptions.assumeTrue(appliesTheHead(), "the engine refuses adapters of lm_head (checked above)");
        try (LoraAdapter headed = runner.loadAdapter(dir.resolve("headed"))) {
            List<LoraAdapter> adapters = Arrays.asList(null, headed, first, headed);
            boolean[] all = {true, false, true, true};
            int n = adapters.size();
            List<KvCache> caches = new ArrayList<>();
            try {
                List<SequenceInput> prefill = new ArrayList<>();
                List<SequenceInput> decode = new ArrayList<>();
                for (int i = 0; i < 2 * n; i++) {
                    caches.add(runner.newCache(16));
                }
                for (int i = 0; i < n; i++) {
                    prefill.add(new SequenceInput(caches.get(i), PROMPT, all[i], adapters.get(i)));
                    decode.add(SequenceInput.of(caches.get(i), adapters.get(i), 7));
                }
                List<SequenceLogits> mixed = runner.forward(prefill);
                List<SequenceLogits> mixedStep = runner.forward(decode);
                for (int i = 0; i < n; i++) {
                    KvCache own = caches.get(n + i);
                    SequenceLogits alone = runner.forward(List.of(new SequenceInput(own, PROMPT, all[i],
                            adapters.get(i)))).getFirst();
                    assertClose(alone.last(), mixed.get(i).last(), "sequence " + i);
                    for (int p = 0; p < alone.positions().size(); p++) {
                        assertClose(alone.positions().get(p), mixed.get(i).positions().get(p),
                                "sequence " + i + " position " + p);
                    }
                    assertClose(runner.forward(List.of(SequenceInput.of(own, adapters.get(i), 7))).getFirst().last(),
                            mixedStep.get(i).last(), "decoding of sequence " + i);
                }
                assertTrue(Logits.maxAbsDiff(mixed.get(0).last(), mixed.get(1).last())
                        > 100 * ModelRunnerContract.TOLERANCE, "the headed adapter changes the logits");
            } finally {
                caches.forEach(KvCache::close);
            }
        }
    }

    private static void assertClose(float[] expected, float[] actual, String what) {
        Logits.assertClose(expected, actual, ModelRunnerContract.TOLERANCE, what);
    }
}
