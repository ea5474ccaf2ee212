package dev.crucible.engine.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.engine.spi.KvCache;
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
import dev.crucible.hf.tiny.TinyAdapter;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An embedding and head of 2 GiB or more load in parts of whole rows. A 7B vocabulary does not fit a test, so the tiny
 * models are split at 100 rows (their 768-row vocabulary in 8 parts, the last one short): inference logits, training
 * log-probabilities and every LoRA gradient, the head's included, match the model loaded whole, for the tied head
 * (Qwen2, Qwen3) and the untied one (Llama).
 */
class DjlRowPartsTest {

    private static final DjlEngineProvider ENGINE = new DjlEngineProvider();
    private static final LoraConfig LORA = LoraConfig.allProjections(TinyAdapter.RANK, TinyAdapter.ALPHA).withHead();

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void aModelSplitIntoPartsOfRowsComputesWhatTheWholeOneDoes(Architecture arch) throws IOException {
        TinyModel model = TinyModel.write(arch, dir.resolve("model"), 3);
        ModelFolder folder = ModelFolder.read(model.dir());
        ModelConfig config = folder.config();
        long partBytes = 100L * config.hiddenSize() * Float.BYTES;
        Path start = dir.resolve("adapter");
        TinyAdapter.writeRandomWithHead(config, start, 7);
        List<TrainingSequence> batch = DjlLoraTrainerTest.batch(config.vocabSize());
        TokenObjective objective = DjlLoraTrainerTest.linear(batch, 9);
        LoraTrainingSpec spec = new LoraTrainingSpec(LORA, Optional.of(start), 11, 0.9, 0.99, 1e-8, 0.0);
        try (ModelRunner whole = ENGINE.loadModel(folder);
                ModelRunner parted = ENGINE.loadModel(folder, partBytes)) {
            int[] ids = batch.getFirst().tokenIds();
            float[][] expected = logits(whole, ids);
            float[][] actual = logits(parted, ids);
            for (int i = 0; i < ids.length; i++) {
                assertArrayEquals(expected[i], actual[i], 1e-5f, arch + " logits at " + i);
            }
            try (DjlLoraTrainer a = (DjlLoraTrainer) whole.newTrainer(spec);
                    DjlLoraTrainer b = (DjlLoraTrainer) parted.newTrainer(spec)) {
                TrainingBatchResult ra = a.accumulate(batch, objective);
                TrainingBatchResult rb = b.accumulate(batch, objective);
                assertEquals(ra.loss(), rb.loss(), 1e-5, arch + " loss");
                for (int i = 0; i < batch.size(); i++) {
                    assertArrayEquals(ra.logprobs().get(i), rb.logprobs().get(i), 1e-5f, arch + " logprobs " + i);
                }
                DjlTrainingMemoryTest.assertSameGradients(config, LORA, a, b, arch.toString());
            }
        }
    }

    private static float[][] logits(ModelRunner runner, int[] ids) {
        try (KvCache cache = runner.newCache(ids.length)) {
            SequenceLogits out = runner.forward(List.of(new SequenceInput(cache, ids, true, null))).getFirst();
            return out.positions().toArray(float[][]::new);
        }
    }

    @Test
    void aPartMustHoldAtLeastOneValueAndFitAJavaBuffer() throws IOException {
        TinyModel model = TinyModel.write(Architecture.QWEN3, dir.resolve("model"), 3);
        ModelFolder folder = ModelFolder.read(model.dir());
        assertThrows(IllegalArgumentException.class, () -> ENGINE.loadModel(folder, 3));
        assertThrows(IllegalArgumentException.class, () -> ENGINE.loadModel(folder, DjlTensors.BUFFER_LIMIT + 4));
    }
}
