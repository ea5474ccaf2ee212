package dev.crucible.engine.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.hf.ModelFormatException;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.safetensors.DType;
import dev.crucible.hf.tiny.TinyModel;
import dev.crucible.testsupport.engine.Logits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Models the djl engine cannot load fail with a typed reason and a message naming the culprit; BF16 loads. */
class DjlLoadFailureTest {

    private static final DjlEngineProvider ENGINE = new DjlEngineProvider();
    private static final String UP = "model.layers.1.mlp.up_proj.weight";

    @TempDir
    Path dir;

    @Test
    void aWeightOfAnUnsupportedDtypeFailsNamingTheTensorAndDtype() throws IOException {
        TinyModel.write(Architecture.QWEN2, dir, 3);
        Weights.rewrite(dir, name -> Optional.of(name.equals(UP) ? DType.F64 : DType.F32));

        EngineException e = assertThrows(EngineException.class, () -> ENGINE.loadModel(ModelFolder.read(dir)));

        assertEquals(EngineException.Reason.UNSUPPORTED_DTYPE, e.reason());
        assertTrue(e.getMessage().contains("'" + UP + "'") && e.getMessage().contains("F64"), e.getMessage());
    }

    @Test
    void anUnsupportedArchitectureFailsNamingItBeforeReachingTheEngine() throws IOException {
        TinyModel.write(Architecture.LLAMA, dir, 3);
        Path config = dir.resolve("config.json");
        Files.writeString(config, Files.readString(config).replace("LlamaForCausalLM", "MistralForCausalLM")
                .replace("\"llama\"", "\"mistral\""));

        var e = assertThrows(ModelFormatException.class, () -> ENGINE.loadModel(ModelFolder.read(dir)));

        assertTrue(e.getMessage().contains("'MistralForCausalLM'"), e.getMessage());
    }

    @Test
    void aMissingTensorFailsNamingIt() throws IOException {
        TinyModel.write(Architecture.LLAMA, dir, 3);
        Weights.rewrite(dir, name -> name.equals("lm_head.weight") ? Optional.empty() : Optional.of(DType.F32));

        EngineException e = assertThrows(EngineException.class, () -> ENGINE.loadModel(ModelFolder.read(dir)));

        assertEquals(EngineException.Reason.INVALID_MODEL, e.reason());
        assertTrue(e.getMessage().contains("'lm_head.weight'") && e.getMessage().contains(dir.toString()),
                e.getMessage());
    }

    @Test
    void aTensorOfTheWrongShapeFailsNamingItAndBothShapes() throws IOException {
        TinyModel.write(Architecture.QWEN3, dir, 3);
        Path config = dir.resolve("config.json");
        Files.writeString(config, Files.readString(config).replace("\"intermediate_size\": 128",
                "\"intermediate_size\": 96"));

        EngineException e = assertThrows(EngineException.class, () -> ENGINE.loadModel(ModelFolder.read(dir)));

        assertEquals(EngineException.Reason.INVALID_MODEL, e.reason());
        assertTrue(e.getMessage().contains("'model.layers.0.mlp.gate_proj.weight' has shape [128, 64], expected "
                + "[96, 64]"), e.getMessage());
    }

    @Test
    void bf16WeightsAreWidenedToF32AndRunCloseToTheF32Model() throws IOException {
        Path f32 = dir.resolve("f32");
        Path bf16 = dir.resolve("bf16");
        TinyModel.write(Architecture.QWEN3, f32, 3);
        TinyModel.write(Architecture.QWEN3, bf16, 3);
        Weights.rewrite(bf16, name -> Optional.of(DType.BF16));
        int[] prompt = {12, 345, 67, 89, 401};

        float[] expected = lastLogits(f32, prompt);
        float[] actual = lastLogits(bf16, prompt);

        // BF16 keeps 8 bits of mantissa: weights move by up to 0.4 %, logits (spread near 4) by a few hundredths.
        double diff = Logits.maxAbsDiff(expected, actual);
        assertTrue(diff < 0.25, "max |logit difference| " + diff);
    }

    private static float[] lastLogits(Path model, int[] prompt) throws IOException {
        try (ModelRunner runner = ENGINE.loadModel(ModelFolder.read(model)); KvCache cache = runner.newCache(8)) {
            return runner.forward(List.of(SequenceInput.of(cache, prompt))).getFirst().last();
        }
    }
}
