package dev.crucible.hf.peft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.hf.ModelFormatException;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.tiny.TinyAdapter;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The unembedding as a LoRA target: PEFT's names and shapes, written and read back, refused at another layer. */
class LoraHeadTest {

    @TempDir
    Path dir;

    @Test
    void theHeadHasPeftsNameAndHiddenToVocabShape() throws IOException {
        TinyModel model = TinyModel.write(Architecture.QWEN2, dir.resolve("model"), 3);
        assertEquals("base_model.model.lm_head.lora_A.weight", LoraTarget.LM_HEAD.tensorName(0, "A"));
        assertEquals("base_model.model.lm_head.lora_B.weight", LoraTarget.LM_HEAD.tensorName(0, "B"));
        assertThrows(IllegalArgumentException.class, () -> LoraTarget.LM_HEAD.tensorName(1, "A"));
        assertEquals(model.config().hiddenSize(), LoraTarget.LM_HEAD.inFeatures(model.config()));
        assertEquals(model.config().vocabSize(), LoraTarget.LM_HEAD.outFeatures(model.config()));
        assertEquals(1, LoraTarget.LM_HEAD.instances(model.config()));
    }

    @Test
    void allProjectionsLeavesTheHeadAlone() {
        assertEquals(EnumSet.complementOf(EnumSet.of(LoraTarget.LM_HEAD)), LoraConfig.allProjections(8, 16).targets());
        assertTrue(LoraConfig.allProjections(8, 16).withHead().targets().contains(LoraTarget.LM_HEAD));
    }

    @Test
    void anAdapterWithTheHeadIsWrittenAndReadBack() throws IOException {
        TinyModel model = TinyModel.write(Architecture.LLAMA, dir.resolve("model"), 3);
        Path adapter = dir.resolve("adapter");
        LoraConfig config = TinyAdapter.writeRandomWithHead(model.config(), adapter, 5);
        assertTrue(Files.readString(adapter.resolve(LoraConfigJson.FILE)).contains("\"lm_head\""));
        LoraWeights read = LoraWeights.read(adapter, model.config());
        assertEquals(config, read.config());
        int head = LoraTarget.LM_HEAD.ordinal();
        try (SafetensorsReader reader = SafetensorsReader.open(adapter.resolve(PeftAdapterWriter.WEIGHTS_FILE))) {
            assertArrayEquals(reader.floats("base_model.model.lm_head.lora_A.weight"), read.a()[0][head]);
            assertArrayEquals(reader.floats("base_model.model.lm_head.lora_B.weight"), read.b()[0][head]);
        }
        assertEquals(TinyAdapter.RANK * model.config().hiddenSize(), read.a()[0][head].length);
        assertEquals(model.config().vocabSize() * TinyAdapter.RANK, read.b()[0][head].length);
        assertNull(read.a()[1][head], "the head is kept once, at index 0");
    }

    @Test
    void aHeadTensorInAnAdapterThatDoesNotNameItIsRefused() throws IOException {
        TinyModel model = TinyModel.write(Architecture.LLAMA, dir.resolve("model"), 3);
        Path adapter = dir.resolve("adapter");
        TinyAdapter.writeRandomWithHead(model.config(), adapter, 5);
        Files.writeString(adapter.resolve(LoraConfigJson.FILE), LoraConfigJson.toJson(
                LoraConfig.allProjections(TinyAdapter.RANK, TinyAdapter.ALPHA)));
        ModelFormatException e = assertThrows(ModelFormatException.class,
                () -> LoraWeights.read(adapter, model.config()));
        assertTrue(e.getMessage().contains("unexpected tensor 'base_model.model.lm_head.lora_A.weight'")
                || e.getMessage().contains("unexpected tensor 'base_model.model.lm_head.lora_B.weight'"), e.getMessage());
    }
}
