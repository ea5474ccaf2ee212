package dev.crucible.engine.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.djl.DjlTrainingMemory.Checkpoint;
import dev.crucible.engine.spi.LoraTrainingSpec;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.TokenObjective;
import dev.crucible.engine.spi.TrainingBatchResult;
import dev.crucible.engine.spi.TrainingSequence;
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
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The memory-saving paths of training give what the plain path gives: the loss over chunks of targets and the decoder
 * checkpointed layer by layer against everything kept and the loss in one piece, with and without an adapted head
 * (whose gradients take the loss's second pass), for log-probabilities, entropies and every LoRA gradient; and the
 * chunk size changes nothing but float32 rounding.
 */
class DjlTrainingMemoryTest {

    private static final DjlEngineProvider ENGINE = new DjlEngineProvider();
    private static final DjlTrainingMemory PLAIN = new DjlTrainingMemory(Integer.MAX_VALUE, Checkpoint.OFF);

    @TempDir
    Path dir;

    private ModelRunner load(Architecture arch) throws IOException {
        TinyModel model = TinyModel.write(arch, dir.resolve("model-" + arch), 3);
        return ENGINE.loadModel(ModelFolder.read(model.dir()));
    }

    private static LoraTrainingSpec spec(LoraConfig lora, Path start) {
        return new LoraTrainingSpec(lora, Optional.of(start), 11, 0.9, 0.99, 1e-8, 0.0);
    }

    /** A random adapter on every projection, and on the head too when {@code head}. */
    private Path adapter(ModelConfig config, boolean head) throws IOException {
        Path start = dir.resolve(head ? "with-head" : "without-head");
        if (head) {
            TinyAdapter.writeRandomWithHead(config, start, 7);
        } else {
            TinyAdapter.writeRandom(config, start, 7);
        }
        return start;
    }

    private static LoraConfig lora(boolean head) {
        LoraConfig all = LoraConfig.allProjections(TinyAdapter.RANK, TinyAdapter.ALPHA);
        return head ? all.withHead() : all;
    }

    /** One accumulate under {@code memory}: its result, and the trainer to read the gradients from (closed later). */
    private static TrainingBatchResult accumulate(DjlLoraTrainer trainer, DjlTrainingMemory memory,
            List<TrainingSequence> batch, TokenObjective objective) {
        trainer.useMemory(memory);
        return trainer.accumulate(batch, objective);
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void checkpointedAndChunkedTrainingGivesThePlainPathsLogprobsAndGradients(Architecture arch) throws IOException {
        assertGivesThePlainPaths(arch, 9, "", (config, batch) -> new DjlTrainingMemory(2, Checkpoint.ON));
    }

    /**
     * With and without an adapter on the head, two trainers from one random start accumulate {@code batch} (the
     * objective drawn from {@code seed}), one under {@link #PLAIN} and one under what {@code memory} gives for the
     * model and the batch: the same log-probabilities and gradients.
     */
    private void assertGivesThePlainPaths(Architecture arch, long seed, String label,
            BiFunction<ModelConfig, List<TrainingSequence>, DjlTrainingMemory> memory) throws IOException {
        for (boolean head : new boolean[] {false, true}) {
            try (ModelRunner runner = load(arch)) {
                ModelConfig config = runner.config();
                Path start = adapter(config, head);
                List<TrainingSequence> batch = DjlLoraTrainerTest.batch(config.vocabSize());
                TokenObjective objective = DjlLoraTrainerTest.linear(batch, seed);
                DjlTrainingMemory saving = memory.apply(config, batch);
                try (DjlLoraTrainer plain = (DjlLoraTrainer) runner.newTrainer(spec(lora(head), start));
                        DjlLoraTrainer other = (DjlLoraTrainer) runner.newTrainer(spec(lora(head), start))) {
                    TrainingBatchResult expected = accumulate(plain, PLAIN, batch, objective);
                    TrainingBatchResult actual = accumulate(other, saving, batch, objective);
                    String what = arch + (head ? " with head" : " without head") + label;
                    assertSameResults(expected, actual, 2e-5f, what);
                    assertSameGradients(config, lora(head), plain, other, what);
                }
            }
        }
    }

    /**
     * Without an adapter on the head, the loss's backward through the head is written by hand; with one, autograd
     * takes it. An adapter whose head {@code B} is zero computes the same function as one without a head, so the two
     * trainers must agree on log-probabilities, entropies and every layer's gradient: the hand-written backward against
     * autograd's, checkpointed and plain, in chunks and whole.
     */
    @ParameterizedTest
    @EnumSource(Architecture.class)
    void theHeadsHandWrittenBackwardGivesAutogradsGradients(Architecture arch) throws IOException {
        try (ModelRunner runner = load(arch)) {
            ModelConfig config = runner.config();
            Path random = adapter(config, true);
            Path zeroHead = dir.resolve("zero-head");
            Path noHead = dir.resolve("no-head");
            copyAdapter(config, random, zeroHead, lora(true));
            copyAdapter(config, random, noHead, lora(false));
            List<TrainingSequence> batch = DjlLoraTrainerTest.batch(config.vocabSize());
            TokenObjective objective = measuringEntropy(DjlLoraTrainerTest.linear(batch, 13));
            for (DjlTrainingMemory memory : List.of(PLAIN, new DjlTrainingMemory(3, Checkpoint.ON))) {
                try (DjlLoraTrainer autograd = (DjlLoraTrainer) runner.newTrainer(spec(lora(true), zeroHead));
                        DjlLoraTrainer byHand = (DjlLoraTrainer) runner.newTrainer(spec(lora(false), noHead))) {
                    TrainingBatchResult expected = accumulate(autograd, memory, batch, objective);
                    TrainingBatchResult actual = accumulate(byHand, memory, batch, objective);
                    String what = arch + ", head by hand, " + memory;
                    assertFalse(actual.entropies().isEmpty(), what + ": entropies measured");
                    assertSameResults(expected, actual, 2e-5f, what);
                    assertSameGradients(config, lora(false), autograd, byHand, what);
                }
            }
        }
    }

    /** {@code from}'s matrices of {@code lora}'s targets written to {@code to}, the head's {@code B} as zeros. */
    private static void copyAdapter(ModelConfig config, Path from, Path to, LoraConfig lora) throws IOException {
        PeftAdapterWriter writer = new PeftAdapterWriter(lora);
        try (SafetensorsReader reader = SafetensorsReader.open(from.resolve(PeftAdapterWriter.WEIGHTS_FILE))) {
            for (int layer = 0; layer < config.numHiddenLayers(); layer++) {
                for (LoraTarget t : lora.targets()) {
                    if (t.inLayer(layer)) {
                        float[] b = reader.floats(t.tensorName(layer, "B"));
                        writer.add(layer, t, reader.floats(t.tensorName(layer, "A")),
                                t == LoraTarget.LM_HEAD ? new float[b.length] : b);
                    }
                }
            }
        }
        writer.write(to);
    }

    private static TokenObjective measuringEntropy(TokenObjective objective) {
        return new TokenObjective() {
            @Override
            public Evaluation evaluate(List<float[]> logprobs) {
                return objective.evaluate(logprobs);
            }

            @Override
            public boolean measuresEntropy() {
                return true;
            }
        };
    }

    /**
     * {@link Checkpoint#AUTO} with room for one layer's activations and the other layers' gate and up outputs: the
     * tiny models' last layer keeps its graph and backpropagates into a leaf of the checkpointed layers' output, which
     * then goes down the layers recomputed from their kept gate and up outputs; and with room for every layer's gate
     * and up outputs only, every layer so.
     */
    @ParameterizedTest
    @EnumSource(Architecture.class)
    void keepingTheLastLayersAndCheckpointingTheRestGivesThePlainPathsGradients(Architecture arch)
            throws IOException {
        for (boolean oneWhole : new boolean[] {true, false}) {
            int whole = oneWhole ? 1 : 0;
            String label = ", " + whole + " layer kept, the others' gate and up";
            assertGivesThePlainPaths(arch, 5, label, (config, batch) -> {
                long tokens = batch.stream().mapToLong(s -> s.tokenIds().length).sum();
                int longest = batch.stream().mapToInt(s -> s.tokenIds().length).max().orElseThrow();
                int layers = config.numHiddenLayers();
                assertTrue(layers > 1, "some layer is checkpointed");
                long perLayer = DjlTrainingMemory.activationBytes(config, tokens, longest) / layers;
                long projections = DjlTrainingMemory.projectionBytes(config, tokens);
                DjlTrainingMemory mixed = new DjlTrainingMemory(Integer.MAX_VALUE, Checkpoint.AUTO,
                        oneWhole ? perLayer + (layers - 1) * projections : layers * projections);
                assertEquals(whole, mixed.keptLayers(config, tokens, longest));
                assertEquals(layers - whole, mixed.projectionLayers(config, tokens, longest));
                return mixed;
            });
        }
    }

    /**
     * Sequences of one length attend as one batch of products: the same log-probabilities and summed gradients as each
     * sequence trained alone (loss = the sum of the log-probabilities, so every call's coefficients are ones).
     */
    @ParameterizedTest
    @EnumSource(Architecture.class)
    void sequencesOfOneLengthTrainedTogetherGiveWhatEachGivesAlone(Architecture arch) throws IOException {
        try (ModelRunner runner = load(arch)) {
            ModelConfig config = runner.config();
            Path start = adapter(config, false);
            java.util.Random random = new java.util.Random(3);
            List<TrainingSequence> batch = List.of(
                    new TrainingSequence(random.ints(10, 0, config.vocabSize()).toArray(), new int[] {1, 4, 9}),
                    new TrainingSequence(random.ints(10, 0, config.vocabSize()).toArray(), new int[] {2, 3}),
                    new TrainingSequence(random.ints(10, 0, config.vocabSize()).toArray(), new int[] {5, 6, 7, 8}));
            TokenObjective sum = logprobs -> new TokenObjective.Evaluation(
                    logprobs.stream().mapToDouble(lp -> {
                        double total = 0;
                        for (float x : lp) {
                            total += x;
                        }
                        return total;
                    }).sum(),
                    logprobs.stream().map(lp -> {
                        float[] ones = new float[lp.length];
                        java.util.Arrays.fill(ones, 1f);
                        return ones;
                    }).toList());
            try (DjlLoraTrainer together = (DjlLoraTrainer) runner.newTrainer(spec(lora(false), start));
                    DjlLoraTrainer alone = (DjlLoraTrainer) runner.newTrainer(spec(lora(false), start))) {
                TrainingBatchResult batched = accumulate(together, PLAIN, batch, sum);
                for (int i = 0; i < batch.size(); i++) {
                    TrainingBatchResult single = accumulate(alone, PLAIN, List.of(batch.get(i)), sum);
                    assertArrayEquals(single.logprobs().getFirst(), batched.logprobs().get(i), 2e-5f,
                            arch + " logprobs of sequence " + i);
                }
                assertSameGradients(config, lora(false), alone, together, arch + " one batch against one by one");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Checkpoint.class)
    void theChunkSizeChangesNothingButRounding(Checkpoint checkpoint) throws IOException {
        try (ModelRunner runner = load(Architecture.QWEN2)) {
            ModelConfig config = runner.config();
            Path start = adapter(config, true);
            List<TrainingSequence> batch = DjlLoraTrainerTest.batch(config.vocabSize());
            TokenObjective objective = DjlLoraTrainerTest.linear(batch, 4);
            try (DjlLoraTrainer whole = (DjlLoraTrainer) runner.newTrainer(spec(lora(true), start))) {
                TrainingBatchResult expected = accumulate(whole, new DjlTrainingMemory(1000, checkpoint), batch,
                        objective);
                for (int rows : new int[] {1, 3, 7}) {
                    try (DjlLoraTrainer chunked = (DjlLoraTrainer) runner.newTrainer(spec(lora(true), start))) {
                        TrainingBatchResult actual = accumulate(chunked, new DjlTrainingMemory(rows, checkpoint),
                                batch, objective);
                        assertSameResults(expected, actual, 2e-5f, "chunks of " + rows);
                        assertSameGradients(config, lora(true), whole, chunked, "chunks of " + rows);
                        chunked.useMemory(new DjlTrainingMemory(rows, checkpoint));
                        List<float[]> scored = chunked.logprobs(batch, true);
                        for (int i = 0; i < batch.size(); i++) {
                            assertArrayEquals(expected.logprobs().get(i), scored.get(i), 2e-5f, "logprobs " + i);
                        }
                    }
                }
            }
        }
    }

    private static void assertSameResults(TrainingBatchResult expected, TrainingBatchResult actual, float tolerance,
            String what) {
        assertEquals(expected.loss(), actual.loss(), 1e-5, what + " loss");
        for (int i = 0; i < expected.logprobs().size(); i++) {
            assertArrayEquals(expected.logprobs().get(i), actual.logprobs().get(i), tolerance, what + " logprobs " + i);
            assertArrayEquals(expected.entropies().get(i), actual.entropies().get(i), tolerance,
                    what + " entropies " + i);
        }
    }

    /** Every gradient equal within 1e-5 of the largest gradient's magnitude, and not all zero. */
    static void assertSameGradients(ModelConfig config, LoraConfig lora, DjlLoraTrainer expected,
            DjlLoraTrainer actual, String what) {
        List<LoraGradients> matrices = LoraGradients.of(config, lora.targets());
        double largest = 0;
        for (LoraGradients m : matrices) {
            for (float g : m.in(expected)) {
                largest = Math.max(largest, Math.abs(g));
            }
        }
        assertTrue(largest > 0, what + ": the plain path has gradients");
        LoraGradients.assertSame(matrices, expected, actual, (float) (1e-5 * largest), what);
    }

    @Test
    void autoKeepsTinyModelsWholeAndOnlyTheLastLayersOfRealOnes() throws IOException {
        DjlTrainingMemory auto = DjlTrainingMemory.parse(null, null, null);
        assertEquals(new DjlTrainingMemory(DjlTrainingMemory.DEFAULT_CHUNK_ROWS, Checkpoint.AUTO,
                (long) DjlTrainingMemory.DEFAULT_KEPT_MIB << 20), auto);
        try (ModelRunner runner = load(Architecture.QWEN3)) {
            ModelConfig tiny = runner.config();
            assertEquals(tiny.numHiddenLayers(), auto.keptLayers(tiny, 8 * 256, 256),
                    "a tiny model's activations are small");
            assertEquals(0, DjlTrainingMemory.parse("on", null, null).keptLayers(tiny, 8, 8));
            assertEquals(tiny.numHiddenLayers(), DjlTrainingMemory.parse("off", null, "0").keptLayers(tiny, 1 << 20,
                    1 << 10));
            assertEquals(0, DjlTrainingMemory.parse("auto", null, "0").keptLayers(tiny, 8, 8));
            assertEquals(0, DjlTrainingMemory.parse("auto", null, "0").projectionLayers(tiny, 8, 8));
            assertEquals(0, DjlTrainingMemory.parse("on", null, null).projectionLayers(tiny, 8, 8));
        }
        assertEquals(new DjlTrainingMemory(5, Checkpoint.OFF, 7L << 20), DjlTrainingMemory.parse(" OFF ", "5", "7"));
        assertEquals(Checkpoint.ON, DjlTrainingMemory.parse("on", null, null).checkpoint());
    }

    @Property
    void keptBudgetsBelowZeroAreRefusedNamingTheProperty(@ForAll @IntRange(min = -1000, max = -1) int mib) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DjlTrainingMemory.parse("auto", null, Integer.toString(mib)));
        assertEquals(DjlTrainingMemory.KEPT_PROPERTY + " must be a whole number of at least 0, got " + mib,
                e.getMessage());
    }

    @Property
    void chunkSizesBelowOneAreRefusedNamingTheProperty(@ForAll @IntRange(min = -1000, max = 0) int rows) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DjlTrainingMemory.parse("auto", Integer.toString(rows), null));
        assertEquals(DjlTrainingMemory.CHUNK_PROPERTY + " must be a whole number of at least 1, got " + rows,
                e.getMessage());
    }

    @Property
    void checkpointValuesOtherThanTheThreeAreRefusedNamingTheProperty(@ForAll String value) {
        String mode = value.strip().toLowerCase(java.util.Locale.ROOT);
        if (mode.equals("auto") || mode.equals("on") || mode.equals("off")) {
            return;
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DjlTrainingMemory.parse(value, null, null));
        assertTrue(e.getMessage().startsWith(DjlTrainingMemory.CHECKPOINT_PROPERTY + " must be auto, on or off"),
                e.getMessage());
    }
}
