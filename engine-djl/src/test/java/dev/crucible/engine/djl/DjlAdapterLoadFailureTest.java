package dev.crucible.engine.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.peft.LoraTarget;
import dev.crucible.hf.peft.PeftAdapterWriter;
import dev.crucible.hf.safetensors.DType;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.safetensors.SafetensorsWriter;
import dev.crucible.hf.safetensors.TensorInfo;
import dev.crucible.hf.tiny.TinyAdapter;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Adapter folders the djl engine cannot apply fail with {@code INVALID_MODEL} and a message naming the culprit. */
class DjlAdapterLoadFailureTest {

    private static final DjlEngineProvider ENGINE = new DjlEngineProvider();
    private static final String Q_A = LoraTarget.Q_PROJ.tensorName(1, "A");

    @TempDir
    Path dir;

    private ModelRunner runner;
    private Path adapter;

    @BeforeEach
    void writeModelAndAdapter() throws IOException {
        TinyModel model = TinyModel.write(Architecture.QWEN2, dir.resolve("model"), 3);
        runner = ENGINE.loadModel(ModelFolder.read(model.dir()));
        adapter = dir.resolve("adapter");
        TinyAdapter.writeRandom(runner.config(), adapter, 5);
    }

    @AfterEach
    void closeRunner() {
        runner.close();
    }

    @Test
    void aMissingFolderOrFileFailsNamingIt() throws IOException {
        assertFails(dir.resolve("nowhere"), "not a folder");
        Files.delete(adapter.resolve(PeftAdapterWriter.WEIGHTS_FILE));
        assertFails(adapter, "missing adapter_model.safetensors");
        Files.delete(adapter.resolve("adapter_config.json"));
        assertFails(adapter, "missing adapter_config.json");
    }

    @Test
    void aBadConfigKeyFailsNamingTheKey() throws IOException {
        editConfig("\"r\": 8", "\"r\": 0");
        assertFails(adapter, "adapter_config.json: 'r' must be a positive integer, got 0");
        editConfig("\"r\": 0", "\"r\": 8");
        editConfig("\"q_proj\"", "\"embed_tokens\"");
        assertFails(adapter, "'target_modules' names 'embed_tokens', which is not supported");
        editConfig("\"use_rslora\": false", "\"use_rslora\": false, \"use_dora\": true");
        assertFails(adapter, "'use_dora' is set (true), but DoRA is not supported");
        editConfig("{", "{\"x\": ");
        assertFails(adapter, "adapter_config.json is not valid JSON");
    }

    @Test
    void aTargetListGivenAsAPatternFailsAskingForModuleNames() throws IOException {
        String config = Files.readString(adapter.resolve("adapter_config.json"));
        Files.writeString(adapter.resolve("adapter_config.json"),
                config.replaceAll("(?s)\"target_modules\": \\[.*?]", "\"target_modules\": \"all-linear\""));
        assertFails(adapter, "'target_modules' must be a list of module names");
    }

    @Test
    void aRankDisagreeingWithTheTensorsFailsNamingTheTensorAndBothShapes() throws IOException {
        editConfig("\"r\": 8", "\"r\": 4");
        assertFails(adapter, "tensor '" + LoraTarget.Q_PROJ.tensorName(0, "A")
                + "' has shape [8, 64], expected [4, 64]");
    }

    @Test
    void aMissingUnexpectedOrMistypedTensorFailsNamingIt() throws IOException {
        rewrite(null, null);
        assertFails(adapter, "missing tensor '" + Q_A + "'");
        TinyAdapter.writeRandom(runner.config(), adapter, 5);
        rewrite(Q_A, DType.F64);
        assertFails(adapter, "tensor '" + Q_A + "' has dtype F64");
        TinyAdapter.writeRandom(runner.config(), adapter, 5);
        rewrite("base_model.model.lm_head.lora_A.weight", DType.F32);
        assertFails(adapter, "unexpected tensor 'base_model.model.lm_head.lora_A.weight'");
    }

    private void assertFails(Path folder, String expected) {
        EngineException e = assertThrows(EngineException.class, () -> runner.loadAdapter(folder));
        assertEquals(EngineException.Reason.INVALID_MODEL, e.reason());
        assertTrue(e.getMessage().startsWith("cannot load adapter " + folder + ": ")
                && e.getMessage().contains(expected), e.getMessage());
    }

    private void editConfig(String from, String to) throws IOException {
        Path config = adapter.resolve("adapter_config.json");
        String text = Files.readString(config);
        assertTrue(text.contains(from), text);
        Files.writeString(config, text.replaceFirst(Pattern.quote(from), to));
    }

    /**
     * Rewrites the adapter's weights without {@link #Q_A} when {@code name} is null; else with tensor {@code name}
     * stored as {@code dtype} (added as a copy of {@link #Q_A} when new).
     */
    private void rewrite(String name, DType dtype) throws IOException {
        Path file = adapter.resolve(PeftAdapterWriter.WEIGHTS_FILE);
        SafetensorsWriter writer = new SafetensorsWriter();
        try (SafetensorsReader reader = SafetensorsReader.open(file)) {
            for (TensorInfo t : reader.tensors()) {
                float[] values = reader.floats(t.name());
                if (name == null && t.name().equals(Q_A)) {
                    continue;
                }
                if (t.name().equals(name) && dtype == DType.F64) {
                    ByteBuffer buf = ByteBuffer.allocate(values.length * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
                    for (float v : values) {
                        buf.putDouble(v);
                    }
                    writer.addRaw(t.name(), DType.F64, t.dims(), buf.array());
                } else {
                    writer.add(t.name(), DType.F32, t.dims(), values);
                }
                if (t.name().equals(Q_A) && name != null && !name.equals(Q_A)) {
                    writer.add(name, dtype, t.dims(), values);
                }
            }
        }
        writer.write(file);
    }
}
