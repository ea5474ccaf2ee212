package dev.crucible.engine.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner says whether it warmed itself at load, which is what asks the server to warm a request's way too: by
 * default it does, and {@code -Dcrucible.onnx.warmUp=false} turns both off.
 */
class OnnxWarmUpTest {

    @TempDir
    Path dir;

    @Test
    void aRunnerWarmsUpAtLoadUnlessTheSettingSaysNot() throws IOException {
        TinyModel.write(Architecture.QWEN3, dir, 11);
        ModelFolder folder = ModelFolder.read(dir);
        assertEquals(true, warmedUp(folder, null));
        assertEquals(true, warmedUp(folder, " TRUE "));
        assertEquals(false, warmedUp(folder, "false"));
        assertEquals(false, warmedUp(folder, " False "));
    }

    @AfterEach
    void clear() {
        System.clearProperty(OnnxModelRunner.WARM_UP_PROPERTY);
    }

    private static boolean warmedUp(ModelFolder folder, String setting) {
        if (setting == null) {
            System.clearProperty(OnnxModelRunner.WARM_UP_PROPERTY);
        } else {
            System.setProperty(OnnxModelRunner.WARM_UP_PROPERTY, setting);
        }
        try (ModelRunner runner = new OnnxEngineProvider().loadModel(folder)) {
            return runner.warmedUp();
        }
    }
}
