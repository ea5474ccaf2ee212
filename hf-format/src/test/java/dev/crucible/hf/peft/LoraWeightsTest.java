package dev.crucible.hf.peft;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.hf.ModelFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoraWeightsTest {

    @TempDir
    Path folder;

    @Test
    void aConfigPastTheBoundIsRefusedBeforeItIsRead() throws IOException {
        // valid JSON (whitespace is), so only the size can refuse it; the model is not reached
        Files.writeString(folder.resolve(LoraConfigJson.FILE), " ".repeat((int) LoraConfigJson.MAX_BYTES) + "{\"r\": 8}");
        Files.write(folder.resolve(PeftAdapterWriter.WEIGHTS_FILE), new byte[8]);
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> LoraWeights.read(folder, null));
        assertTrue(e.getMessage().contains("adapter_config.json is larger than 1048576 bytes"), e.getMessage());
    }
}
