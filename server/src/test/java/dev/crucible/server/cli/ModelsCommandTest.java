package dev.crucible.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.folder.ModelFolder;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code crucible models make-tiny} writes a model folder that reads back. */
class ModelsCommandTest {

    @TempDir
    Path dir;

    @Test
    void makeTinyWritesAModelFolder() throws Exception {
        StringWriter out = new StringWriter();
        Path model = dir.resolve("tiny-qwen3");
        int code = new CommandLine(new CrucibleCommand()).setOut(new PrintWriter(out))
                .execute("models", "make-tiny", "--arch", "qwen3", "--out", model.toString(), "--seed", "7");
        assertEquals(0, code);
        assertTrue(out.toString().startsWith("wrote a tiny qwen3 model to " + model), out.toString());
        ModelFolder folder = ModelFolder.read(model);
        assertEquals(Architecture.QWEN3, folder.config().architecture());
        assertTrue(folder.tokenizer().chatTemplate().isPresent());
    }

    @Test
    void anUnknownArchitectureIsRefusedListingTheKnownOnes() {
        StringWriter err = new StringWriter();
        int code = new CommandLine(new CrucibleCommand()).setErr(new PrintWriter(err))
                .execute("models", "make-tiny", "--arch", "gpt2", "--out", dir.toString());
        assertNotEquals(0, code);
        assertTrue(err.toString().contains("--arch must be one of llama, qwen2, qwen3, got 'gpt2'"), err.toString());
    }
}
