package dev.crucible.engine.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineProviderTest {

    /** An engine that is only what it declares: every other method, {@code loadModel} included, is the default. */
    private record Declared(String name, Set<Capability> capabilities, EngineHealth health) implements EngineProvider {
    }

    /** A training-only engine, which inherits the default {@code loadModel}. */
    private static final EngineProvider TRAINER_ONLY = new Declared("trainer", EnumSet.of(Capability.TRAINING),
            EngineHealth.healthy());

    @Test
    void anEngineWithoutInferenceRefusesToLoadAModelNamingItself(@TempDir Path dir) throws IOException {
        TinyModel.write(Architecture.QWEN2, dir, 1);
        ModelFolder folder = ModelFolder.read(dir);

        EngineException e = assertThrows(EngineException.class, () -> TRAINER_ONLY.loadModel(folder));

        assertEquals(EngineException.Reason.NOT_CAPABLE, e.reason());
        assertTrue(e.getMessage().contains("'trainer'") && e.getMessage().contains("TRAINING"), e.getMessage());
    }

    @Test
    void anEngineThatDoesNotQuantiseRefusesInt4AsAnUnsupportedDtypeAndLoadsF32AsUsual(@TempDir Path dir)
            throws IOException {
        TinyModel.write(Architecture.QWEN2, dir, 1);
        ModelFolder folder = ModelFolder.read(dir);

        EngineException int4 = assertThrows(EngineException.class, () -> TRAINER_ONLY.loadModel(folder,
                Precision.INT4));
        EngineException f32 = assertThrows(EngineException.class, () -> TRAINER_ONLY.loadModel(folder,
                Precision.F32));

        assertEquals(EngineException.Reason.UNSUPPORTED_DTYPE, int4.reason());
        assertTrue(int4.getMessage().contains("int4"), int4.getMessage());
        assertEquals(EngineException.Reason.NOT_CAPABLE, f32.reason(), "F32 goes to loadModel(folder)");
    }

    @Test
    void anEngineThatDeclaresNoRankComesAfterEveryEngineThatDoes() {
        assertEquals(Integer.MAX_VALUE, TRAINER_ONLY.rank());
    }

    @Test
    void precisionsAreNamedInLowerCaseAndAnUnknownOneIsRefusedNamingTheKnownOnes() {
        assertEquals(Precision.INT4, Precision.of(" INT4 "));
        assertEquals("f32", Precision.F32.label());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Precision.of("fp8"));
        assertTrue(e.getMessage().contains("f32, int4") && e.getMessage().contains("'fp8'"), e.getMessage());
    }
}
