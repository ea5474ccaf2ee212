package dev.crucible.hf.tiny;

import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.config.GenerationConfigJson;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.config.ModelConfigJson;
import dev.crucible.hf.tokenizer.TrainedTokenizer;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;

/**
 * A small random-weight model written as a Hugging Face folder: {@code model.safetensors} (F32),
 * {@code tokenizer.json} (byte-level BPE trained on a built-in corpus), {@code tokenizer_config.json} (with the
 * family's chat template), {@code generation_config.json} and {@code config.json}. The same architecture and seed
 * always give the same bytes. Each file is written to a temporary name and moved into place, {@code config.json}
 * last, so a folder with a {@code config.json} is complete.
 *
 * @param dir        the folder written
 * @param config     the model's configuration as written to {@code config.json}
 * @param parameters the number of weights
 * @param bytes      the size of {@code model.safetensors}
 */
public record TinyModel(Path dir, ModelConfig config, long parameters, long bytes) {

    /** Rejects nulls. */
    public TinyModel {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(config, "config");
    }

    /** Writes a tiny model of {@code arch} into {@code outDir} (created if needed; its files are replaced). */
    public static TinyModel write(Architecture arch, Path outDir, long seed) throws IOException {
        Files.createDirectories(outDir);
        TrainedTokenizer tok = TinyTokenizers.train(arch);
        ModelConfig config = TinyConfigs.config(arch, tok);
        TinyWeights weights = TinyWeights.of(config, tok.size(), seed);
        Path tmp = outDir.resolve("model.safetensors.tmp");
        long bytes = weights.writer().write(tmp);
        move(tmp, outDir.resolve("model.safetensors"));
        put(outDir, "tokenizer.json", tok.toJson());
        put(outDir, "tokenizer_config.json",
                TinyTokenizerConfig.json(arch, tok, config.maxPositionEmbeddings()));
        put(outDir, "generation_config.json", GenerationConfigJson.toJson(TinyConfigs.generation(arch, tok)));
        put(outDir, "config.json", ModelConfigJson.toJson(config));
        return new TinyModel(outDir, config, weights.parameters(), bytes);
    }

    private static void put(Path dir, String name, String content) throws IOException {
        Path tmp = dir.resolve(name + ".tmp");
        Files.writeString(tmp, content);
        move(tmp, dir.resolve(name));
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
