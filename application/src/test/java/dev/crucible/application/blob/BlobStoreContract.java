package dev.crucible.application.blob;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link BlobStore} does, run by each store against its real storage (the local filesystem, S3Proxy).
 * Digests are checked against NIST's SHA-256 test vector, not against the store's own hashing.
 */
public abstract class BlobStoreContract {

    /** SHA-256("abc"), FIPS 180-2 appendix B.1. */
    static final String ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    /** The streaming test's object: larger than the heap it runs in, when the build gives it a small one. */
    static final long LARGE = 256L << 20;

    @TempDir
    protected Path scratch;

    /** An empty store, new for each test. */
    protected abstract BlobStore store();

    @Test
    void namesAnObjectByTheSha256OfItsBytesAndReadsItBack() throws IOException {
        BlobStore store = store();
        StoredBlob blob = put(store, "abc");
        assertEquals(new StoredBlob(new BlobDigest(ABC), 3), blob);
        assertEquals("abc", read(store, blob.digest()));
    }

    @Test
    void theSameBytesPutTwiceAreOneObject() {
        BlobStore store = store();
        StoredBlob first = put(store, "same bytes");
        StoredBlob second = put(store, "same bytes");
        assertEquals(first, second);
        assertEquals(List.of(first), blobs(store));
    }

    @Test
    void anEmptyObjectIsAnObject() throws IOException {
        BlobStore store = store();
        StoredBlob empty = put(store, "");
        assertEquals(0, empty.size());
        assertEquals("", read(store, empty.digest()));
    }

    @Test
    void anUploadOverTheBoundKeepsNothing() {
        BlobStore store = store();
        assertEquals(Optional.empty(), store.put(new ByteArrayInputStream(new byte[100_001]), 100_000));
        assertEquals(List.of(), blobs(store));
    }

    @Test
    void aBrokenUploadKeepsNothing() {
        BlobStore store = store();
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
        assertThrows(UncheckedIOException.class, () -> store.put(broken, Long.MAX_VALUE));
        assertEquals(List.of(), blobs(store));
    }

    @Test
    void anObjectHalfWrittenIsInvisible() {
        BlobStore store = store();
        byte[] data = bytes(3 << 20);
        BlobDigest digest = sha256(data);
        List<Boolean> seenMidway = new ArrayList<>();
        InputStream watched = new ByteArrayInputStream(data) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                if (pos >= data.length / 2 && seenMidway.isEmpty()) {
                    seenMidway.add(store.open(digest).isPresent() || !blobs(store).isEmpty());
                }
                return super.read(b, off, len);
            }
        };
        assertEquals(digest, store.put(watched, Long.MAX_VALUE).orElseThrow().digest());
        assertEquals(List.of(false), seenMidway, "midway through the upload, no reader sees the object");
        assertTrue(store.open(digest).isPresent());
    }

    @Test
    void objectsWithoutTheirManifestAreNoThing() {
        BlobStore store = store();
        put(store, "adapter weights");
        ManifestName name = new ManifestName("adapters/m/step-1");
        assertEquals(Optional.empty(), store.manifest(name));
        assertEquals(List.of(), store.manifests(""));
    }

    @Test
    void aManifestIsReadBackAsWrittenAndListedByPrefix() {
        BlobStore store = store();
        BlobManifest manifest = BlobManifest.of(Map.of("adapter_config.json", put(store, "{}"),
                "optimizer/state.bin", put(store, "moments")));
        store.putManifest(new ManifestName("adapters/a/step-1"), manifest);
        store.putManifest(new ManifestName("adapters/a/step-2"), manifest);
        store.putManifest(new ManifestName("adapters/b/step-1"), manifest);
        store.putManifest(new ManifestName("files/file-1"), manifest);
        assertEquals(Optional.of(manifest), store.manifest(new ManifestName("adapters/a/step-2")));
        assertEquals(Set.of("adapters/a/step-1", "adapters/a/step-2"), names(store, "adapters/a/"));
        assertEquals(4, store.manifests("").size());
    }

    @Test
    void aManifestWrittenAgainIsReplacedAndADeletedOneIsGone() {
        BlobStore store = store();
        ManifestName name = new ManifestName("files/file-1");
        BlobManifest second = BlobManifest.of(Map.of("content", put(store, "second")));
        store.putManifest(name, BlobManifest.of(Map.of("content", put(store, "first"))));
        store.putManifest(name, second);
        assertEquals(Optional.of(second), store.manifest(name));
        store.deleteManifest(name);
        store.deleteManifest(name);
        assertEquals(Optional.empty(), store.manifest(name));
        assertEquals(Set.of(), names(store, ""));
    }

    @Test
    void aDeletedObjectIsGoneAndDeletingAMissingOneIsFine() {
        BlobStore store = store();
        StoredBlob blob = put(store, "to delete");
        store.delete(blob.digest());
        store.delete(blob.digest());
        assertEquals(Optional.empty(), store.open(blob.digest()));
        assertEquals(List.of(), blobs(store));
    }

    @Test
    void copiesAnObjectToAFile() throws IOException {
        BlobStore store = store();
        StoredBlob blob = put(store, "abc");
        Path target = scratch.resolve("copy");
        store.copyTo(blob.digest(), target);
        assertEquals("abc", Files.readString(target));
        assertThrows(UncheckedIOException.class, () -> store.copyTo(new BlobDigest("0".repeat(64)),
                scratch.resolve("missing")));
    }

    @Test
    void collectingDeletesOnlyOldObjectsThatNoManifestNames() {
        BlobStore store = store();
        StoredBlob named = put(store, "named");
        StoredBlob orphan = put(store, "orphan");
        store.putManifest(new ManifestName("files/file-1"), BlobManifest.of(Map.of("content", named)));
        Clock now = Clock.systemUTC();
        assertEquals(0, new BlobCollector(store, Duration.ofHours(1), now).collect(), "young orphans stay");
        Clock later = Clock.fixed(Instant.now().plus(Duration.ofHours(2)), ZoneOffset.UTC);
        assertEquals(1, new BlobCollector(store, Duration.ofHours(1), later).collect());
        assertEquals(List.of(named), blobs(store));
        assertEquals(Optional.empty(), store.open(orphan.digest()));
        store.deleteManifest(new ManifestName("files/file-1"));
        new BlobCollector(store, Duration.ofHours(1), later).collect();
        assertEquals(List.of(), blobs(store), "deleting the manifest, then collecting, removes its objects");
    }

    /**
     * A {@value #LARGE}-byte object goes in and comes out in chunks: generated as it is read, and hashed as it is
     * read back. It runs where the build gives the test a heap smaller than the object, so a store that held it
     * whole would fail with an {@link OutOfMemoryError}.
     */
    @Test
    void streamsAnObjectLargerThanTheHeapBothWays() throws IOException {
        assumeTrue(Runtime.getRuntime().maxMemory() < LARGE,
                "needs a heap below 256 MiB to prove streaming (the build's small-heap execution gives one)");
        BlobStore store = store();
        MessageDigest expected = sha256();
        InputStream generated = new InputStream() {
            private long left = LARGE;
            private final byte[] pattern = bytes(1 << 16);

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (left == 0) {
                    return -1;
                }
                int n = (int) Math.min(Math.min(len, left), pattern.length);
                System.arraycopy(pattern, 0, b, off, n);
                expected.update(b, off, n);
                left -= n;
                return n;
            }
        };
        StoredBlob blob = store.put(generated, Long.MAX_VALUE).orElseThrow();
        assertEquals(new StoredBlob(BlobDigest.of(expected.digest()), LARGE), blob);
        MessageDigest back = sha256();
        long size = 0;
        try (InputStream in = store.open(blob.digest()).orElseThrow()) {
            byte[] buffer = new byte[1 << 16];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                back.update(buffer, 0, n);
                size += n;
            }
        }
        assertEquals(LARGE, size);
        assertEquals(blob.digest(), BlobDigest.of(back.digest()));
        store.delete(blob.digest());
        assertFalse(store.open(blob.digest()).isPresent());
    }

    static StoredBlob put(BlobStore store, String text) {
        return store.put(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), Long.MAX_VALUE)
                .orElseThrow();
    }

    static String read(BlobStore store, BlobDigest digest) throws IOException {
        try (InputStream in = store.open(digest).orElseThrow()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static List<StoredBlob> blobs(BlobStore store) {
        List<StoredBlob> all = new ArrayList<>();
        store.forEachBlob(info -> all.add(info.blob()));
        return all;
    }

    static Set<String> names(BlobStore store, String prefix) {
        return store.manifests(prefix).stream().map(ManifestName::value).collect(Collectors.toSet());
    }

    static byte[] bytes(int n) {
        byte[] data = new byte[n];
        for (int i = 0; i < n; i++) {
            data[i] = (byte) (i * 31 + (i >>> 8));
        }
        return data;
    }

    static BlobDigest sha256(byte[] data) {
        return BlobDigest.of(sha256().digest(data));
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
