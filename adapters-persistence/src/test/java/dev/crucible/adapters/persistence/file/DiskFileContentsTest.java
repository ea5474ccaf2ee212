package dev.crucible.adapters.persistence.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.domain.file.FileId;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskFileContentsTest {

    @TempDir
    Path dataDir;

    private DiskFileContents contents() {
        return new DiskFileContents(dataDir);
    }

    private long filesIn(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.count();
        }
    }

    @Test
    void temporaryFilesAKilledUploadLeftAreRemovedOnceADayOldWhenTheStoreStarts() throws IOException {
        Path partial = Files.createDirectories(dataDir.resolve("files/.partial"));
        Path old = Files.writeString(partial.resolve("file-old.part"), "half");
        Path recent = Files.writeString(partial.resolve("file-new.part"), "half");
        Files.setLastModifiedTime(old, java.nio.file.attribute.FileTime.from(
                java.time.Instant.now().minus(DiskFileContents.STALE_PARTIAL).minusSeconds(60)));
        contents();
        assertTrue(Files.notExists(old), "a day-old leftover is removed");
        assertTrue(Files.exists(recent), "a recent one may be another server's upload in progress");
    }

    @Test
    void writesTheBlobUnderFilesAndReadsItBack() throws IOException {
        FileId id = FileId.random();
        byte[] data = new byte[200_000];
        data[123_456] = 7;
        assertEquals(OptionalLong.of(data.length), contents().write(id, new ByteArrayInputStream(data), data.length));
        assertTrue(Files.isRegularFile(dataDir.resolve("files").resolve(id.toString())));
        try (InputStream in = contents().open(id)) {
            assertArrayEquals(data, in.readAllBytes());
        }
        assertEquals(0, filesIn(dataDir.resolve("files/.partial")), "no temporary file is left");
    }

    @Test
    void anUploadOverTheBoundLeavesNothing() throws IOException {
        FileId id = FileId.random();
        assertEquals(OptionalLong.empty(), contents().write(id, new ByteArrayInputStream(new byte[100_001]), 100_000));
        assertFalse(Files.exists(dataDir.resolve("files").resolve(id.toString())));
        assertEquals(0, filesIn(dataDir.resolve("files/.partial")));
    }

    @Test
    void aBrokenUploadLeavesNothing() throws IOException {
        FileId id = FileId.random();
        InputStream broken = new InputStream() {
            private int left = 70_000;

            @Override
            public int read() throws IOException {
                if (left-- <= 0) {
                    throw new IOException("connection reset");
                }
                return 1;
            }
        };
        assertThrows(UncheckedIOException.class, () -> contents().write(id, broken, 1_000_000));
        assertFalse(Files.exists(dataDir.resolve("files").resolve(id.toString())));
        assertEquals(0, filesIn(dataDir.resolve("files/.partial")));
    }

    @Test
    void deletingRemovesTheBlobAndToleratesAMissingOne() {
        FileId id = FileId.random();
        contents().write(id, new ByteArrayInputStream(new byte[] {1}), 10);
        contents().delete(id);
        assertFalse(Files.exists(dataDir.resolve("files").resolve(id.toString())));
        contents().delete(id);
        assertThrows(UncheckedIOException.class, () -> contents().open(id));
    }
}
