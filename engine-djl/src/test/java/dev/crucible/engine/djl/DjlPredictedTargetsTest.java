package dev.crucible.engine.djl;

import static dev.crucible.testsupport.engine.Logits.logSoftmax;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.peft.LoraConfig;
import dev.crucible.hf.tiny.TinyAdapter;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Tinker datum through the trainer: {@link TrainingSequence#predicting} with targets that are not the shifted input
 * scores the given targets, each read from the inference forward's logits of the input alone at that position.
 */
class DjlPredictedTargetsTest {

    @TempDir
    Path dir;

    @Test
    void aDatumWhoseTargetsAreNotTheShiftedInputScoresTheGivenTargets() throws IOException {
        ModelFolder folder = ModelFolder.read(TinyModel.write(Architecture.QWEN2, dir.resolve("model"), 3).dir());
        TinyAdapter.writeRandom(folder.config(), dir.resolve("adapter"), 7);
        try (ModelRunner runner = new DjlEngineProvider().loadModel(folder);
                LoraTrainer trainer = runner.newTrainer(new LoraTrainingSpec(LoraConfig.allProjections(
                        TinyAdapter.RANK, TinyAdapter.ALPHA), Optional.of(dir.resolve("adapter")), 1, 0.9, 0.99, 1e-8,
                        0));
                LoraAdapter adapter = runner.loadAdapter(dir.resolve("adapter"));
                KvCache cache = runner.newCache(16)) {
            Random random = new Random(13);
            int[] input = random.ints(9, 0, runner.vocabSize()).toArray();
            int[] next = new int[input.length];
            for (int i = 0; i < next.length; i++) {
                // Never the shifted input: the token after input[i] plus one, wrapped.
                next[i] = ((i + 1 < input.length ? input[i + 1] : input[0]) + 1) % runner.vocabSize();
            }
            TrainingSequence datum = TrainingSequence.predicting(input, next);
            float[] scored = trainer.logprobs(List.of(datum), true).getFirst();
            SequenceLogits out = runner.forward(List.of(new SequenceInput(cache, input, true, adapter))).getFirst();
            assertEquals(input.length, scored.length);
            for (int i = 0; i < input.length; i++) {
                float[] logits = out.positions().get(i);
                assertEquals(logSoftmax(logits, next[i]), scored[i], 2e-5, "position " + i + " scores next[i]");
                assertTrue(Math.abs(logSoftmax(logits, next[i]) - logSoftmax(logits, (next[i] + runner.vocabSize() - 1)
                        % runner.vocabSize())) > 1e-3, "the two candidate tokens must score differently");
            }
            TrainingBatchResult accumulated = trainer.accumulate(List.of(datum), logprobs -> new TokenObjective
                    .Evaluation(0, List.of(new float[logprobs.getFirst().length])));
            assertArrayEquals(scored, accumulated.logprobs().getFirst(), 1e-6f, "the training forward scores them too");
        }
    }
}
