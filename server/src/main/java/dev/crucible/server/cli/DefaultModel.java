package dev.crucible.server.cli;

import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The model served when none is configured: a tiny random-weight Qwen3 model (real tokenizer and chat template,
 * meaningless text) written into the data directory on first start, so a fresh server works end to end offline.
 */
final class DefaultModel {

    static final String NAME = "crucible-tiny";
    private static final long SEED = 0;

    private DefaultModel() {
    }

    /** Writes the model if missing and returns its {@code NAME=PATH} spec. */
    static String ensure(Path dataDir) {
        Path folder = dataDir.toAbsolutePath().normalize().resolve("models").resolve(NAME);
        if (!Files.isRegularFile(folder.resolve("config.json"))) {
            try {
                TinyModel.write(Architecture.QWEN3, folder, SEED);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the default model to " + folder, e);
            }
        }
        return NAME + "=" + folder;
    }
}
