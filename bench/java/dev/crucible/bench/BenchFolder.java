package dev.crucible.bench;

import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * What the bench's generated model folders share: a {@code COMPLETE} marker, written last, holding a stamp of what
 * was written (seed and shape), and the tiny Qwen2 model's tokenizer, its config with the chat template, and its
 * generation config.
 */
final class BenchFolder {

    private static final String MARKER = "COMPLETE";

    private BenchFolder() {
    }

    /**
     * Whether {@code work} holds a complete model written with {@code stamp}; if not, removes any other marker so
     * that a writing interrupted from here on leaves none.
     */
    static boolean complete(Path work, String stamp) throws IOException {
        Path marker = work.resolve(MARKER);
        if (Files.exists(marker) && Files.readString(marker).equals(stamp)) {
            return true;
        }
        Files.deleteIfExists(marker);
        return false;
    }

    /** Marks {@code work} complete with {@code stamp}: the last file a writer writes. */
    static void markComplete(Path work, String stamp) throws IOException {
        Files.writeString(work.resolve(MARKER), stamp);
    }

    /**
     * Writes the tiny Qwen2 model of {@code seed} into {@code tiny} and copies its tokenizer files into {@code hf};
     * returns its config, whose special-token ids the bench model takes.
     */
    static ModelConfig tinyTokenizer(Path tiny, Path hf, long seed) throws IOException {
        ModelConfig config = TinyModel.write(Architecture.QWEN2, tiny, seed).config();
        Files.createDirectories(hf);
        for (String name : List.of("tokenizer.json", "tokenizer_config.json", "generation_config.json")) {
            Files.copy(tiny.resolve(name), hf.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
        return config;
    }
}
