package dev.crucible.adapters.persistence.blob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.blob.AdapterCache;
import dev.crucible.application.blob.BlobAdapterFiles;
import dev.crucible.application.blob.BlobCollector;
import dev.crucible.application.blob.BlobSweeps;
import dev.crucible.application.blob.BlobFileContents;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.model.ModelId;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LegacyDataImportTest {

    @TempDir
    Path dataDir;

    @Test
    void filesAndAdaptersOfTheOlderLayoutAreServedFromTheBlobStoreAfterAStart() throws IOException {
        FileId file = FileId.random();
        ModelId model = ModelId.random();
        Files.createDirectories(dataDir.resolve("files/.partial"));
        Files.writeString(dataDir.resolve("files").resolve(file.toString()), "{\"messages\": []}\n");
        Path step = Files.createDirectories(dataDir.resolve("adapters").resolve(model.value().toString())
                .resolve("step-2"));
        Files.writeString(step.resolve("adapter_config.json"), "{}");
        Files.writeString(step.resolve("adapter_model.safetensors"), "weights");

        DiskBlobStore store = new DiskBlobStore(dataDir);
        BlobSweeps collector = BlobSweeps.inline(new BlobCollector(store, Duration.ofHours(1), Clock.systemUTC()));
        BlobFileContents files = new BlobFileContents(store, collector);
        BlobAdapterFiles adapters = new BlobAdapterFiles(store, new AdapterCache(dataDir.resolve("adapter-cache"),
                1 << 20), collector);
        LegacyDataImport legacy = new LegacyDataImport(dataDir, files, adapters);
        legacy.onApplicationEvent(null);

        try (InputStream in = files.open(file)) {
            assertEquals("{\"messages\": []}\n", new String(in.readAllBytes()));
        }
        assertEquals("weights", Files.readString(adapters.stepFolder(model, 2).orElseThrow()
                .resolve("adapter_model.safetensors")));
        assertTrue(Files.notExists(step), "the old copy goes once the new one is complete");
        assertTrue(Files.notExists(dataDir.resolve("files").resolve(file.toString())));
        assertEquals(0, legacy.importFiles() + legacy.importAdapters(), "a second start finds nothing to move");
    }
}
