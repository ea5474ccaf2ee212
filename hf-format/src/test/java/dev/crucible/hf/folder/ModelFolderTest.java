package dev.crucible.hf.folder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.hf.ModelFormatException;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelFolderTest {

    @TempDir
    Path dir;

    @Test
    void readsAllConfigurationOfAFolder() throws IOException {
        TinyModel tiny = TinyModel.write(Architecture.QWEN3, dir, 3);
        ModelFolder folder = ModelFolder.read(dir);
        assertEquals(tiny.config(), folder.config());
        assertTrue(folder.tokenizer().chatTemplate().isPresent());
        assertEquals(2, folder.generation().eosTokenIds().size());
        try (SafetensorsReader weights = folder.openWeights()) {
            assertTrue(weights.contains("model.layers.1.self_attn.k_norm.weight"));
        }
    }

    @Test
    void refusesAFolderMissingARequiredFileNamingIt() throws IOException {
        TinyModel.write(Architecture.LLAMA, dir, 3);
        Files.delete(dir.resolve("tokenizer.json"));
        var e = assertThrows(ModelFormatException.class, () -> ModelFolder.read(dir));
        assertTrue(e.getMessage().endsWith("has no tokenizer.json: not a Hugging Face model folder"), e.getMessage());
        Files.writeString(dir.resolve("tokenizer.json"), "{}");
        Files.delete(dir.resolve("model.safetensors"));
        e = assertThrows(ModelFormatException.class, () -> ModelFolder.read(dir));
        assertTrue(e.getMessage().endsWith("has no *.safetensors weights"), e.getMessage());
    }

    @Test
    void namesTheFolderWhenItsConfigIsUnsupported() throws IOException {
        TinyModel.write(Architecture.QWEN2, dir, 3);
        Files.writeString(dir.resolve("config.json"), Files.readString(dir.resolve("config.json"))
                .replace("Qwen2ForCausalLM", "GPT2LMHeadModel"));
        var e = assertThrows(ModelFormatException.class, () -> ModelFolder.read(dir));
        assertTrue(e.getMessage().startsWith(dir + ": unsupported architecture 'GPT2LMHeadModel'"), e.getMessage());
    }
}
