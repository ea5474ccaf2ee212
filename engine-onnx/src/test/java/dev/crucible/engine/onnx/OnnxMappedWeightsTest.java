package dev.crucible.engine.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.safetensors.TensorLocation;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * F32 weights referenced in the safetensors file itself (ONNX Runtime maps it) give exactly the logits of weights
 * copied into ONNX Runtime, although safetensors offsets are not page-aligned.
 */
class OnnxMappedWeightsTest {

    private static final int[] PROMPT = {3, 141, 59, 26, 53, 58, 97, 93};

    @TempDir
    Path dir;

    @Test
    void weightsReferencedInTheUnalignedSafetensorsFileGiveTheLogitsOfCopiedWeights() throws IOException {
        TinyModel.write(Architecture.QWEN2, dir, 31);
        try (SafetensorsReader reader = SafetensorsReader.open(dir.resolve("model.safetensors"))) {
            TensorLocation q = reader.location("model.layers.0.self_attn.q_proj.weight");
            assertTrue(q.offset() % 4096 != 0, "the check needs a tensor off a page boundary, got offset "
                    + q.offset());
        }
        ModelFolder folder = ModelFolder.read(dir);
        float[] mapped = lastLogits(folder, "true");
        float[] copied = lastLogits(folder, "false");
        assertArrayEquals(copied, mapped);
    }

    private static float[] lastLogits(ModelFolder folder, String map) {
        String before = System.getProperty(OnnxWeights.MAP_PROPERTY);
        System.setProperty(OnnxWeights.MAP_PROPERTY, map);
        try (ModelRunner runner = new OnnxEngineProvider().loadModel(folder); KvCache cache = runner.newCache(32)) {
            return runner.forward(List.of(SequenceInput.of(cache, PROMPT))).getFirst().last();
        } finally {
            if (before == null) {
                System.clearProperty(OnnxWeights.MAP_PROPERTY);
            } else {
                System.setProperty(OnnxWeights.MAP_PROPERTY, before);
            }
        }
    }
}
