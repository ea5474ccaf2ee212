package dev.crucible.adapters.persistence.health;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StorageProbeTest {

    @Test
    void failsBelowTheThresholdSayingWhatIsFree() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> StorageProbe.check(0, 100L << 20, 64L << 20));
        assertTrue(e.getMessage().contains("0 bytes (0.0 MiB) free of 104857600 (100.0 MiB)"), e.getMessage());
        assertTrue(e.getMessage().contains("crucible.storage.min-free-bytes = 67108864"), e.getMessage());
    }

    @Test
    void passesAtTheThreshold() {
        assertDoesNotThrow(() -> StorageProbe.check(64L << 20, 100L << 20, 64L << 20));
    }

    @Test
    void probesTheDataDirectoryItsFileSystemEvenBeforeItExists(@TempDir Path dir) {
        assertDoesNotThrow(() -> new StorageProbe(dir.resolve("not/yet"), 0).probe());
        assertThrows(IllegalStateException.class, () -> new StorageProbe(dir, Long.MAX_VALUE).probe());
    }
}
