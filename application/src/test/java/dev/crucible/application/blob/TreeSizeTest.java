package dev.crucible.application.blob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link AdapterCache#treeSize}: what a cached folder (and a step folder handed out from it) weighs. */
class TreeSizeTest {

    @TempDir
    Path dir;

    @Test
    void countsTheRegularFilesInTheFolderAndBelow() throws IOException {
        Files.write(dir.resolve("adapter_model.safetensors"), new byte[10]);
        Files.write(dir.resolve("adapter_config.json"), new byte[3]);
        Path nested = Files.createDirectories(dir.resolve("optimizer"));
        Files.write(nested.resolve("state"), new byte[7]);

        assertEquals(20, AdapterCache.treeSize(dir));
        assertEquals(7, AdapterCache.treeSize(nested));
    }

    @Test
    void anEmptyFolderWeighsNothingAndAMissingOneCannotBeMeasured() {
        assertEquals(0, AdapterCache.treeSize(dir));
        assertThrows(UncheckedIOException.class, () -> AdapterCache.treeSize(dir.resolve("gone")));
    }
}
