package dev.crucible.application.blob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.domain.file.FileId;
import dev.crucible.domain.model.ModelId;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlobAdapterFilesTest {

    @TempDir
    Path dir;

    private final MemoryBlobStore store = new MemoryBlobStore();
    private final BlobSweeps sweeps = BlobSweeps.inline(new BlobCollector(store, Duration.ZERO,
            Clock.offset(Clock.systemUTC(), Duration.ofSeconds(1))));

    private BlobAdapterFiles adapters(Path cacheDir, long maxBytes) {
        return new BlobAdapterFiles(store, new AdapterCache(cacheDir, maxBytes), sweeps);
    }

    private static void peft(Path folder, String weights) {
        try {
            Files.writeString(folder.resolve("adapter_config.json"), "{\"r\": 8}");
            Files.writeString(folder.resolve("adapter_model.safetensors"), weights);
            Files.createDirectories(folder.resolve("optimizer"));
            Files.writeString(folder.resolve("optimizer/state.bin"), "moments of " + weights);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void anotherServerMaterialisesTheStepWithEveryFileItsTrainerWrote() throws IOException {
        ModelId model = ModelId.random();
        adapters(dir.resolve("cache-a"), 1 << 20).writeStep(model, 3, f -> peft(f, "weights-3"));
        Path folder = adapters(dir.resolve("cache-b"), 1 << 20).stepFolder(model, 3).orElseThrow();
        assertTrue(folder.startsWith(dir.resolve("cache-b")));
        assertEquals("weights-3", Files.readString(folder.resolve("adapter_model.safetensors")));
        assertEquals("moments of weights-3", Files.readString(folder.resolve("optimizer/state.bin")));
        assertEquals(Optional.empty(), adapters(dir.resolve("cache-b"), 1 << 20).stepFolder(model, 4));
    }

    @Test
    void twoCheckpointsWithEqualFilesShareOneCachedFolder() throws IOException {
        BlobAdapterFiles adapters = adapters(dir.resolve("cache"), 1 << 20);
        ModelId a = ModelId.random();
        ModelId b = ModelId.random();
        adapters.writeStep(a, 1, f -> peft(f, "same"));
        adapters.writeStep(b, 1, f -> peft(f, "same"));
        assertEquals(adapters.stepFolder(a, 1), adapters.stepFolder(b, 1));
        assertEquals("same", Files.readString(adapters.stepFolder(b, 1).orElseThrow()
                .resolve("adapter_model.safetensors")));
    }

    @Test
    void aTrainerThatFailsMidwayLeavesNoStepAndNoStaging() throws IOException {
        ModelId model = ModelId.random();
        BlobAdapterFiles adapters = adapters(dir.resolve("cache"), 1 << 20);
        assertThrows(UncheckedIOException.class, () -> adapters.writeStep(model, 1, f -> {
            peft(f, "half");
            throw new UncheckedIOException(new IOException("disk full"));
        }));
        assertEquals(Optional.empty(), adapters.stepFolder(model, 1));
        try (var left = Files.list(dir.resolve("cache"))) {
            assertEquals(0, left.count(), "no staging folder is left in the cache");
        }
    }

    @Test
    void deletingAStepThenTheModelRemovesObjectsNothingElseNames() {
        ModelId model = ModelId.random();
        BlobAdapterFiles adapters = adapters(dir.resolve("cache"), 1 << 20);
        adapters.writeStep(model, 1, f -> peft(f, "one"));
        adapters.writeStep(model, 2, f -> peft(f, "two"));
        int both = BlobStoreContract.blobs(store).size();
        adapters.deleteStep(model, 1);
        assertEquals(Optional.empty(), adapters.stepFolder(model, 1));
        assertEquals(both - 2, BlobStoreContract.blobs(store).size(), "the config both steps share stays");
        assertTrue(adapters.stepFolder(model, 2).isPresent());
        adapters.deleteModel(model);
        assertEquals(List.of(), BlobStoreContract.blobs(store));
        assertEquals(List.of(), store.manifests(""));
    }

    @Test
    void aServedStepsManifestIsReadOnceUntilTheCatalogSaysItIsGone() {
        ModelId model = ModelId.random();
        adapters(dir.resolve("writer"), 1 << 20).writeStep(model, 1, f -> peft(f, "one"));
        adapters(dir.resolve("writer"), 1 << 20).writeStep(model, 2, f -> peft(f, "two"));
        BlobAdapterFiles reader = adapters(dir.resolve("reader"), 1 << 20);
        Path one = reader.stepFolder(model, 1).orElseThrow();
        assertTrue(reader.stepFolder(model, 2).isPresent());
        // another process deletes both steps: this one learns it from the catalog, not from the store
        store.deleteManifest(new ManifestName("adapters/" + model.value() + "/step-1"));
        store.deleteManifest(new ManifestName("adapters/" + model.value() + "/step-2"));
        assertEquals(Optional.of(one), reader.stepFolder(model, 1), "remembered, so the store is not read");
        reader.forget(model, OptionalInt.of(1));
        assertEquals(Optional.empty(), reader.stepFolder(model, 1));
        assertTrue(reader.stepFolder(model, 2).isPresent(), "forgetting one step keeps the others");
        reader.forget(model, OptionalInt.empty());
        assertEquals(Optional.empty(), reader.stepFolder(model, 2));
    }

    @Test
    void theCacheKeepsAtMostItsBytesEvictingTheLeastRecentlyUsed() {
        ModelId model = ModelId.random();
        adapters(dir.resolve("writer"), 0).writeStep(model, 1, f -> peft(f, "a".repeat(1000)));
        adapters(dir.resolve("writer"), 0).writeStep(model, 2, f -> peft(f, "b".repeat(1000)));
        adapters(dir.resolve("writer"), 0).writeStep(model, 3, f -> peft(f, "c".repeat(1000)));
        AdapterCache cache = new AdapterCache(dir.resolve("reader"), 2 * 2100);
        BlobAdapterFiles reader = new BlobAdapterFiles(store, cache, sweeps);
        Path one = reader.stepFolder(model, 1).orElseThrow();
        Path two = reader.stepFolder(model, 2).orElseThrow();
        assertEquals(one, reader.stepFolder(model, 1).orElseThrow(), "a cached folder is handed out again");
        Path three = reader.stepFolder(model, 3).orElseThrow();
        assertTrue(Files.isDirectory(one), "step 1 was used after step 2");
        assertFalse(Files.exists(two), "step 2 was the least recently used");
        assertTrue(Files.isDirectory(three));
        assertTrue(cache.bytes() <= 2 * 2100, "bytes " + cache.bytes());
        assertNotEquals(one, three);
        AdapterCache reopened = new AdapterCache(dir.resolve("reader"), 1 << 20);
        assertEquals(cache.bytes(), reopened.bytes(), "a restart keeps the folders it finds");
    }

    @Test
    void foldersHandedOutWithinTheirInUseTimeStayPastTheBoundAndAnotherProcessesFoldersAreFound() {
        ModelId model = ModelId.random();
        BlobAdapterFiles writer = adapters(dir.resolve("writer"), 0);
        for (int step = 1; step <= 3; step++) {
            String weights = "w" + step;
            writer.writeStep(model, step, f -> peft(f, weights));
        }
        AdapterCache busy = new AdapterCache(dir.resolve("shared"), 10, Duration.ofHours(1));
        BlobAdapterFiles one = new BlobAdapterFiles(store, busy, sweeps);
        List<Path> folders = List.of(one.stepFolder(model, 1).orElseThrow(), one.stepFolder(model, 2).orElseThrow(),
                one.stepFolder(model, 3).orElseThrow());
        assertTrue(folders.stream().allMatch(Files::isDirectory), "none is evicted while it may be loading");
        AdapterCache other = new AdapterCache(dir.resolve("shared"), 10, Duration.ofHours(1));
        assertEquals(busy.bytes(), other.bytes(), "a second process sharing the folder counts what it finds");
        assertEquals(folders.get(1), new BlobAdapterFiles(store, other, sweeps).stepFolder(model, 2).orElseThrow());
    }

    @Test
    void uploadedFilesAreOneManifestEachAndEqualUploadsShareAnObject() throws IOException {
        BlobFileContents files = new BlobFileContents(store, sweeps);
        FileId a = FileId.random();
        FileId b = FileId.random();
        byte[] data = "line\n".repeat(1000).getBytes();
        assertEquals(OptionalLong.of(data.length), files.write(a, new ByteArrayInputStream(data), data.length));
        assertEquals(OptionalLong.of(data.length), files.write(b, new ByteArrayInputStream(data), data.length));
        assertEquals(1, BlobStoreContract.blobs(store).size());
        assertEquals(OptionalLong.empty(), files.write(FileId.random(), new ByteArrayInputStream(data), 10));
        files.delete(a);
        assertThrows(UncheckedIOException.class, () -> files.open(a));
        try (InputStream in = files.open(b)) {
            assertEquals(new String(data), new String(in.readAllBytes()), "b's bytes stay: b still names them");
        }
        files.delete(b);
        assertEquals(new ArrayList<>(), BlobStoreContract.blobs(store));
    }
}
