package dev.crucible.hf.folder;

import dev.crucible.hf.ModelFormatException;
import dev.crucible.hf.config.GenerationConfig;
import dev.crucible.hf.config.GenerationConfigJson;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.config.ModelConfigJson;
import dev.crucible.hf.config.TokenizerConfig;
import dev.crucible.hf.config.TokenizerConfigJson;
import dev.crucible.hf.safetensors.SafetensorsReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * A model folder whose configuration has been read and checked: {@code config.json} (required),
 * {@code generation_config.json} and {@code tokenizer_config.json} (optional), {@code tokenizer.json} and safetensors
 * weights (required, present but not yet opened). Immutable; {@link #openWeights()} maps the weights.
 *
 * @param tokenizerJson the {@code tokenizer.json} path, which {@link dev.crucible.hf.tokenizer.Tokenizer#load} reads
 */
public record ModelFolder(Path dir, ModelConfig config, GenerationConfig generation, TokenizerConfig tokenizer,
        Path tokenizerJson) {

    /** Rejects nulls. */
    public ModelFolder {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(generation, "generation");
        Objects.requireNonNull(tokenizer, "tokenizer");
        Objects.requireNonNull(tokenizerJson, "tokenizerJson");
    }

    /**
     * Reads a folder's configuration. A missing required file, an unsupported architecture or a malformed file fails
     * with a {@link ModelFormatException} naming the folder and the problem.
     */
    public static ModelFolder read(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new ModelFormatException(dir + " is not a folder");
        }
        require(dir, "config.json");
        Path tokenizerJson = require(dir, "tokenizer.json");
        try (Stream<Path> files = Files.list(dir)) {
            if (files.noneMatch(p -> p.getFileName().toString().endsWith(".safetensors"))) {
                throw new ModelFormatException(dir + " has no *.safetensors weights");
            }
        }
        try {
            return new ModelFolder(dir, ModelConfigJson.read(dir), GenerationConfigJson.read(dir),
                    TokenizerConfigJson.read(dir), tokenizerJson);
        } catch (ModelFormatException e) {
            throw new ModelFormatException(dir + ": " + e.getMessage(), e);
        }
    }

    /** Maps the weights; the caller closes the reader once the engine no longer uses them. */
    public SafetensorsReader openWeights() throws IOException {
        return SafetensorsReader.open(dir);
    }

    private static Path require(Path dir, String name) {
        Path file = dir.resolve(name);
        if (!Files.isRegularFile(file)) {
            throw new ModelFormatException(dir + " has no " + name + ": not a Hugging Face model folder");
        }
        return file;
    }
}
