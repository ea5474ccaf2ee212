package dev.crucible.engine.djl;

import dev.crucible.engine.spi.LoraTrainingSpec;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.peft.LoraConfig;
import dev.crucible.hf.tiny.TinyAdapter;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the optimiser tests start: a tiny Qwen3 model and a random LoRA adapter over every projection, and the
 * trainer settings they share (seed 11, {@code beta1} 0.9, {@code eps} 1e-8, no weight decay).
 */
record OptimizerStart(ModelFolder model, Path adapter) {

    /** The adapter's shape, as {@link TinyAdapter#writeRandom} writes it. */
    static final LoraConfig LORA = LoraConfig.allProjections(TinyAdapter.RANK, TinyAdapter.ALPHA);

    /** Writes the model under {@code dir/model} and the adapter under {@code dir/start}. */
    static OptimizerStart write(Path dir) throws IOException {
        ModelFolder model = ModelFolder.read(TinyModel.write(Architecture.QWEN3, dir.resolve("model"), 3).dir());
        Path adapter = dir.resolve("start");
        TinyAdapter.writeRandom(model.config(), adapter, 7);
        return new OptimizerStart(model, adapter);
    }

    /** A trainer's spec that starts from the adapter in {@code from}, with {@code beta2} as its default. */
    static LoraTrainingSpec spec(Path from, double beta2) {
        return new LoraTrainingSpec(LORA, Optional.of(from), 11, 0.9, beta2, 1e-8, 0.0);
    }
}
