package dev.crucible.adapters.persistence.blob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.blob.BlobStore;
import dev.crucible.application.blob.BlobStoreContract;
import dev.crucible.application.blob.StoredBlob;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The blob store contract on the local filesystem, plus what only this store does (hard links, leftovers). */
class DiskBlobStoreTest extends BlobStoreContract {

    @Override
    protected BlobStore store() {
        return new DiskBlobStore(scratch.resolve("data"));
    }

    @Test
    void anObjectIsAReadOnlyFileThatACacheOnTheSameDiskLinksTo() throws IOException {
        BlobStore store = store();
        StoredBlob blob = store.put(new ByteArrayInputStream("weights".getBytes()), 100).orElseThrow();
        Path object = scratch.resolve("data/blobs/objects").resolve(blob.digest().hex().substring(0, 2))
                .resolve(blob.digest().hex());
        assertFalse(Files.getPosixFilePermissions(object).contains(PosixFilePermission.OWNER_WRITE),
                "an object is never changed");
        Path copy = scratch.resolve("copy");
        store.copyTo(blob.digest(), copy);
        assertTrue(Files.isSameFile(object, copy) || Files.readString(copy).equals("weights"));
        assertEquals("weights", Files.readString(copy));
    }

    @Test
    void partialFilesOlderThanTheCutoffAreRemovedYoungerOnesStay() throws IOException {
        BlobStore store = store();
        Path partial = Files.createDirectories(scratch.resolve("data/blobs/.partial"));
        Path old = Files.writeString(partial.resolve("put-old.part"), "half");
        Path recent = Files.writeString(partial.resolve("put-new.part"), "half");
        Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofDays(1))));
        store.removeAbandoned(Instant.now().minus(Duration.ofHours(1)));
        assertTrue(Files.notExists(old), "a crashed upload's leftover is removed");
        assertTrue(Files.exists(recent), "a recent one may be another server's upload in progress");
    }
}
