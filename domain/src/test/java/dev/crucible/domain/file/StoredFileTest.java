package dev.crucible.domain.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class StoredFileTest {

    private static final EntityName ENTITY = new EntityName("acme");
    private static final Instant NOW = Instant.parse("2026-11-26T18:00:00Z");

    @Test
    void aStoredFileHoldsAtLeastOneByte() {
        assertEquals(1, new StoredFile(FileId.random(), ENTITY, "a.jsonl", FilePurpose.FINE_TUNE, 1, NOW).bytes());
        assertEquals("bytes must be >= 1, got 0", assertThrows(IllegalArgumentException.class,
                () -> new StoredFile(FileId.random(), ENTITY, "a.jsonl", FilePurpose.FINE_TUNE, 0, NOW)).getMessage());
    }

    @Test
    void everyPartIsRequiredAndNamed() {
        assertEquals("filename", assertThrows(NullPointerException.class,
                () -> new StoredFile(FileId.random(), ENTITY, null, FilePurpose.FINE_TUNE, 1, NOW)).getMessage());
        assertEquals("createdAt", assertThrows(NullPointerException.class,
                () -> new StoredFile(FileId.random(), ENTITY, "a", FilePurpose.FINE_TUNE, 1, null)).getMessage());
    }
}
