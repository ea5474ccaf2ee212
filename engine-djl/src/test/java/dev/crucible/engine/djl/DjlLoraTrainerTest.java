package dev.crucible.engine.djl;

import static dev.crucible.testsupport.engine.Logits.logSoftmax;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.LoraAdapter;
import dev.crucible.engine.spi.LoraTrainer;
import dev.crucible.engine.spi.LoraTrainingSpec;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * LoRA training on tiny random models: autograd's gradients against central finite differences of the same loss,
 * the training forward against the inference forward, AdamW's first step, gradient accumulation and learning.
 */
class DjlLoraTrainerTest {

    private static final DjlEngineProvider ENGINE = new DjlEngineProvider();
    /** Every projection of every layer and the unembedding ({@code lm_head}), as Tinker's default create_model. */
    private static final LoraConfig LORA = LoraConfig.allProjections(TinyAdapter.RANK, TinyAdapter.ALPHA).withHead();

    @TempDir
    Path dir;

    private static LoraTrainingSpec spec(Optional<Path> start) {
        return new LoraTrainingSpec(LORA, start, 11, 0.9, 0.99, 1e-8, 0.0);
    }

    private ModelRunner load(Architecture arch) throws IOException {
        TinyModel model = TinyModel.write(arch, dir.resolve("model-" + arch), 3);
        return ENGINE.loadModel(ModelFolder.read(model.dir()));
    }

    /** A trainer of {@link #LORA} on {@code runner} that starts from the adapter in {@code start}. */
    private static DjlLoraTrainer trainerFrom(ModelRunner runner, Path start) {
        return (DjlLoraTrainer) runner.newTrainer(spec(Optional.of(start)));
    }

    static List<TrainingSequence> batch(int vocab) {
        Random random = new Random(5);
        List<TrainingSequence> batch = new ArrayList<>();
        for (int length : new int[] {12, 9}) {
            int[] ids = random.ints(length, 0, vocab).toArray();
            batch.add(new TrainingSequence(ids, length == 12 ? new int[] {3, 4, 5, 9, 11} : new int[] {1, 2, 8}));
        }
        return batch;
    }

    /** {@code loss = sum of c * logprob} with fixed random coefficients: its gradient is {@code c}. */
    private static TokenObjective linear(List<TrainingSequence> batch) {
        return linear(batch, 9);
    }

    /** {@code loss = sum of c * logprob} with coefficients drawn from {@code seed}: its gradient is {@code c}. */
    static TokenObjective linear(List<TrainingSequence> batch, long seed) {
        Random random = new Random(seed);
        List<float[]> c = new ArrayList<>();
        for (TrainingSequence s : batch) {
            float[] row = new float[s.targetCount()];
            for (int i = 0; i < row.length; i++) {
                row[i] = (float) random.nextGaussian();
            }
            c.add(row);
        }
        return logprobs -> {
            double loss = 0;
            for (int i = 0; i < logprobs.size(); i++) {
                for (int j = 0; j < logprobs.get(i).length; j++) {
                    loss += c.get(i)[j] * logprobs.get(i)[j];
                }
            }
            return new TokenObjective.Evaluation(loss, c);
        };
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void gradientsOfEveryKindOfMatrixMatchCentralFiniteDifferences(Architecture arch) throws IOException {
        try (ModelRunner runner = load(arch)) {
            ModelConfig config = runner.config();
            Path start = dir.resolve("start");
            TinyAdapter.writeRandomWithHead(config, start, 7);
            List<TrainingSequence> batch = batch(config.vocabSize());
            TokenObjective objective = linear(batch);
            int last = config.numHiddenLayers() - 1;
            double worst = 0;
            try (DjlLoraTrainer trainer = trainerFrom(runner, start)) {
                trainer.accumulate(batch, objective);
                for (LoraTarget target : LoraTarget.values()) {
                    for (boolean ofA : new boolean[] {true, false}) {
                        int layer = target.ordinal() % 2 == 0 || !target.inLayer(last) ? 0 : last;
                        float[] grad = trainer.gradient(layer, target, ofA);
                        int index = argmaxAbs(grad);
                        double numeric = finiteDifference(runner, start, batch, objective, layer, target, ofA, index);
                        double error = Math.abs(numeric - grad[index]) / Math.max(1e-3, Math.abs(numeric));
                        worst = Math.max(worst, error);
                        assertTrue(error < 2e-2, arch + " " + target + (ofA ? " A" : " B") + "[" + index
                                + "]: autograd " + grad[index] + ", finite difference " + numeric);
                    }
                }
            }
            System.out.printf("%s: worst relative error of LoRA gradients vs finite differences %.2e%n", arch, worst);
        }
    }

    private double finiteDifference(ModelRunner runner, Path start, List<TrainingSequence> batch,
            TokenObjective objective, int layer, LoraTarget target, boolean ofA, int index) throws IOException {
        double eps = 1e-2;
        double plus = lossWith(runner, start, batch, objective, layer, target, ofA, index, eps);
        double minus = lossWith(runner, start, batch, objective, layer, target, ofA, index, -eps);
        return (plus - minus) / (2 * eps);
    }

    private double lossWith(ModelRunner runner, Path start, List<TrainingSequence> batch, TokenObjective objective,
            int layer, LoraTarget target, boolean ofA, int index, double delta) throws IOException {
        Path nudged = dir.resolve("nudged");
        PeftAdapterWriter writer = new PeftAdapterWriter(LORA);
        try (SafetensorsReader reader = SafetensorsReader.open(start.resolve(PeftAdapterWriter.WEIGHTS_FILE))) {
            for (int l = 0; l < runner.config().numHiddenLayers(); l++) {
                for (LoraTarget t : LORA.targets()) {
                    if (!t.inLayer(l)) {
                        continue;
                    }
                    float[] a = reader.floats(t.tensorName(l, "A"));
                    float[] b = reader.floats(t.tensorName(l, "B"));
                    if (l == layer && t == target) {
                        float[] m = ofA ? a : b;
                        m[index] = (float) (m[index] + delta);
                    }
                    writer.add(l, t, a, b);
                }
            }
        }
        writer.write(nudged);
        try (LoraTrainer trainer = runner.newTrainer(spec(Optional.of(nudged)))) {
            return objective.evaluate(trainer.logprobs(batch, true)).loss();
        }
    }

    private static int argmaxAbs(float[] values) {
        int best = 0;
        for (int i = 1; i < values.length; i++) {
            if (Math.abs(values[i]) > Math.abs(values[best])) {
                best = i;
            }
        }
        return best;
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void trainingLogprobsEqualTheInferenceForwardWithTheSavedAdapter(Architecture arch) throws IOException {
        try (ModelRunner runner = load(arch)) {
            Path start = randomAdapter(runner);
            TrainingSequence seq = batch(runner.vocabSize()).getFirst();
            try (LoraTrainer trainer = trainerFrom(runner, start)) {
                trainer.save(dir.resolve("saved"));
                float[] trained = trainer.logprobs(List.of(seq), true).getFirst();
                try (LoraAdapter adapter = runner.loadAdapter(dir.resolve("saved"));
                        KvCache cache = runner.newCache(seq.length())) {
                    SequenceLogits out = runner.forward(List.of(new SequenceInput(cache, seq.tokenIds(), true, adapter)))
                            .getFirst();
                    int[] targets = seq.targets();
                    for (int i = 0; i < targets.length; i++) {
                        float[] logits = out.positions().get(targets[i] - 1);
                        assertEquals(logSoftmax(logits, seq.targetToken(i)), trained[i], 2e-5, arch + " target " + i);
                    }
                }
            }
        }
    }

    /** A random adapter for the runner's model, saved in the PEFT folder {@code start}. */
    private Path randomAdapter(ModelRunner runner) throws IOException {
        Path start = dir.resolve("start");
        TinyAdapter.writeRandomWithHead(runner.config(), start, 7);
        return start;
    }

    @Test
    void aFreshAdapterIsTheBaseModelAndTheFirstAdamWStepMovesEveryTrainedWeightByTheLearningRate()
            throws IOException {
        try (ModelRunner runner = load(Architecture.QWEN3)) {
            List<TrainingSequence> batch = batch(runner.vocabSize());
            try (DjlLoraTrainer trainer = (DjlLoraTrainer) runner.newTrainer(spec(Optional.empty()))) {
                List<float[]> base = trainer.logprobs(batch, false);
                List<float[]> adapted = trainer.logprobs(batch, true);
                for (int i = 0; i < batch.size(); i++) {
                    assertArrayEquals(base.get(i), adapted.get(i), 0f);
                }
                trainer.accumulate(batch, linear(batch));
                float[] gradB = trainer.gradient(0, LoraTarget.V_PROJ, false);
                float[] gradA = trainer.gradient(0, LoraTarget.V_PROJ, true);
                assertTrue(norm(gradB) > 0, "B gets a gradient through the forward");
                assertEquals(0, norm(gradA), 0.0, "A gets none while B is zero");
                trainer.step(1e-3, Double.POSITIVE_INFINITY);
                trainer.save(dir.resolve("stepped"));
                try (SafetensorsReader reader = SafetensorsReader.open(
                        dir.resolve("stepped").resolve(PeftAdapterWriter.WEIGHTS_FILE))) {
                    float[] b = reader.floats(LoraTarget.V_PROJ.tensorName(0, "B"));
                    for (int i = 0; i < b.length; i++) {
                        // Adam's first step is lr * g / (|g| + eps): the sign of the gradient, against it.
                        double expected = gradB[i] == 0 ? 0 : -1e-3 * Math.signum(gradB[i]);
                        assertEquals(expected, b[i], 1e-6, "B[" + i + "] after one step");
                    }
                }
                assertEquals(1, trainer.steps());
            }
        }
    }

    /**
     * DJL wraps Java buffers without copying, so a factor closed right after use (as {@code mul(float)} does) is freed
     * by the next collection even though autograd still holds it for the backward pass. The objective runs between
     * forward and backward; collecting there must not change the gradients.
     */
    @Test
    void aGarbageCollectionBetweenForwardAndBackwardLeavesTheGradientsAlone() throws IOException {
        try (ModelRunner runner = load(Architecture.QWEN3)) {
            Path start = randomAdapter(runner);
            List<TrainingSequence> batch = batch(runner.vocabSize());
            try (DjlLoraTrainer plain = trainerFrom(runner, start);
                    DjlLoraTrainer collected = trainerFrom(runner, start)) {
                plain.accumulate(batch, linear(batch));
                collected.accumulate(batch, collectingGarbageFirst(linear(batch)));
                assertSameGradients(runner.config(), plain, collected, 1e-6f);
            }
        }
    }

    /** {@code objective}, evaluated after three garbage collections, each followed by small native allocations. */
    private static TokenObjective collectingGarbageFirst(TokenObjective objective) {
        return logprobs -> {
            for (int i = 0; i < 3; i++) {
                System.gc();
                // Small native allocations that reuse whatever the collection freed.
                try (NDManager m = NDManager.newBaseManager()) {
                    for (int j = 0; j < 200; j++) {
                        m.create(new float[] {Float.NaN}).close();
                    }
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return objective.evaluate(logprobs);
        };
    }

    @Test
    void targetsTheObjectiveCannotDifferentiateAreScoredWithoutAddingToTheGradient() throws IOException {
        try (ModelRunner runner = load(Architecture.QWEN2)) {
            Path start = randomAdapter(runner);
            List<TrainingSequence> batch = batch(runner.vocabSize());
            TokenObjective linear = linear(batch);
            List<float[]> zeros = batch.stream().map(s -> new float[s.targetCount()]).toList();
            // Every other target's coefficient is zero: the plain objective says nothing of it, the other declares
            // those targets constant, so the trainer scores them apart, detached.
            TokenObjective plain = logprobs -> {
                List<float[]> c = linear.evaluate(zeros).gradients().stream().map(float[]::clone).toList();
                c.forEach(row -> {
                    for (int i = 1; i < row.length; i += 2) {
                        row[i] = 0;
                    }
                });
                double loss = 0;
                for (int i = 0; i < c.size(); i++) {
                    for (int j = 0; j < c.get(i).length; j++) {
                        loss += c.get(i)[j] * logprobs.get(i)[j];
                    }
                }
                return new TokenObjective.Evaluation(loss, c);
            };
            TokenObjective declared = new TokenObjective() {
                @Override
                public Evaluation evaluate(List<float[]> logprobs) {
                    return plain.evaluate(logprobs);
                }

                @Override
                public boolean graded(int sequence, int target) {
                    return target % 2 == 0;
                }
            };
            try (DjlLoraTrainer all = trainerFrom(runner, start);
                    DjlLoraTrainer split = trainerFrom(runner, start)) {
                TrainingBatchResult whole = all.accumulate(batch, plain);
                TrainingBatchResult parted = split.accumulate(batch, declared);
                assertEquals(whole.loss(), parted.loss(), 1e-5);
                for (int i = 0; i < batch.size(); i++) {
                    // The unembedding of fewer rows at once rounds differently in float32.
                    assertArrayEquals(whole.logprobs().get(i), parted.logprobs().get(i), 1e-4f, "logprobs " + i);
                    assertArrayEquals(whole.entropies().get(i), parted.entropies().get(i), 1e-4f, "entropies " + i);
                }
                assertSameGradients(runner.config(), all, split, 1e-5f);
            }
            try (DjlLoraTrainer none = trainerFrom(runner, start)) {
                TrainingBatchResult scored = none.accumulate(batch, new TokenObjective() {
                    @Override
                    public Evaluation evaluate(List<float[]> logprobs) {
                        return new Evaluation(0, zeros);
                    }

                    @Override
                    public boolean graded(int sequence, int target) {
                        return false;
                    }

                    @Override
                    public boolean measuresEntropy() {
                        return false;
                    }
                });
                assertArrayEquals(none.logprobs(batch, true).get(0), scored.logprobs().get(0), 1e-4f);
                assertEquals(List.of(), scored.entropies(), "an objective that measures no entropy gets none");
                assertEquals(0.0, none.step(0, 0), "no target counted, so no gradient");
            }
        }
    }

    private static void assertSameGradients(ModelConfig config, DjlLoraTrainer expected, DjlLoraTrainer actual,
            float tolerance) {
        LoraGradients.assertSame(LoraGradients.of(config, List.of(LoraTarget.values())), expected, actual, tolerance,
                "");
    }

    @Test
    void aTrainerContinuingFromASavedFolderTakesTheSameStepAsOneThatNeverStopped() throws IOException {
        try (ModelRunner runner = load(Architecture.QWEN3)) {
            List<TrainingSequence> batch = batch(runner.vocabSize());
            try (LoraTrainer straight = runner.newTrainer(spec(Optional.empty()))) {
                for (int i = 0; i < 2; i++) {
                    straight.accumulate(batch, linear(batch));
                    straight.step(1e-3, 1.0);
                }
                straight.save(dir.resolve("two-steps"));
            }
            try (LoraTrainer first = runner.newTrainer(spec(Optional.empty()))) {
                first.accumulate(batch, linear(batch));
                first.step(1e-3, 1.0);
                first.save(dir.resolve("one-step"));
            }
            try (LoraTrainer resumed = runner.newTrainer(spec(Optional.of(dir.resolve("one-step"))))) {
                assertEquals(1, resumed.steps(), "the step count carries over");
                resumed.accumulate(batch, linear(batch));
                resumed.step(1e-3, 1.0);
                resumed.save(dir.resolve("resumed"));
            }
            try (SafetensorsReader a = SafetensorsReader.open(dir.resolve("two-steps").resolve(PeftAdapterWriter.WEIGHTS_FILE));
                    SafetensorsReader b = SafetensorsReader.open(dir.resolve("resumed").resolve(PeftAdapterWriter.WEIGHTS_FILE))) {
                for (String name : a.names()) {
                    assertArrayEquals(a.floats(name), b.floats(name), 1e-6f, name);
                }
            }
        }
    }

    @Test
    void gradientsAccumulateOverBatchesUntilTheStepClearsThem() throws IOException {
        try (ModelRunner runner = load(Architecture.QWEN2)) {
            Path start = randomAdapter(runner);
            List<TrainingSequence> batch = batch(runner.vocabSize());
            try (LoraTrainer once = trainerFrom(runner, start);
                    LoraTrainer twice = trainerFrom(runner, start)) {
                once.accumulate(batch, linear(batch));
                twice.accumulate(batch.subList(0, 1), linear(batch.subList(0, 1)));
                twice.accumulate(batch, linear(batch));
                twice.accumulate(batch, linear(batch));
                double single = once.step(0, 0);
                double doubled = twice.step(0, 0);
                assertTrue(doubled > 1.9 * single, single + " vs " + doubled);
                twice.accumulate(batch, linear(batch));
                assertEquals(single, twice.step(0, 0), single * 1e-4, "the step cleared the sum");
            }
        }
    }

    @Test
    void crossEntropyOnOneSequenceFallsAsTheAdapterTrains() throws IOException {
        try (ModelRunner runner = load(Architecture.LLAMA)) {
            TrainingSequence seq = batch(runner.vocabSize()).getFirst();
            TokenObjective crossEntropy = logprobs -> {
                float[] lp = logprobs.getFirst();
                float[] grad = new float[lp.length];
                double loss = 0;
                for (int i = 0; i < lp.length; i++) {
                    loss -= lp[i] / lp.length;
                    grad[i] = -1f / lp.length;
                }
                return new TokenObjective.Evaluation(loss, List.of(grad));
            };
            try (LoraTrainer trainer = runner.newTrainer(spec(Optional.empty()))) {
                double first = Double.NaN;
                double lastLoss = Double.NaN;
                for (int step = 0; step < 30; step++) {
                    TrainingBatchResult result = trainer.accumulate(List.of(seq), crossEntropy);
                    first = step == 0 ? result.loss() : first;
                    lastLoss = result.loss();
                    trainer.step(1e-2, 1.0);
                }
                System.out.printf("cross-entropy %.3f -> %.3f over 30 steps%n", first, lastLoss);
                assertTrue(lastLoss < first / 4, first + " -> " + lastLoss);
            }
        }
    }

    @Test
    void badBatchesAndBadGradientsAreRefusedBeforeAnythingChanges() throws IOException {
        try (ModelRunner runner = load(Architecture.QWEN3);
                LoraTrainer trainer = runner.newTrainer(spec(Optional.empty()))) {
            int vocab = runner.vocabSize();
            assertThrows(IllegalArgumentException.class, () -> trainer.accumulate(List.of(), linear(List.of())));
            List<TrainingSequence> outOfRange = List.of(new TrainingSequence(new int[] {1, vocab}, new int[] {1}));
            assertEquals("batch[0].tokenIds[1] must be in [0, " + vocab + "), got " + vocab,
                    assertThrows(IllegalArgumentException.class, () -> trainer.logprobs(outOfRange, true)).getMessage());
            List<TrainingSequence> batch = batch(vocab);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> trainer.accumulate(batch,
                    lp -> new TokenObjective.Evaluation(0, List.of(new float[5], new float[1]))));
            assertEquals("objective returned 1 gradients for sequence 1, expected 3", e.getMessage());
            assertEquals(0, trainer.step(0, 0), 0.0, "nothing was accumulated");
        }
    }

    private static double norm(float[] values) {
        double sum = 0;
        for (float v : values) {
            sum += v * v;
        }
        return Math.sqrt(sum);
    }
}
