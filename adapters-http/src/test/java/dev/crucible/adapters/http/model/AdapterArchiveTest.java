package dev.crucible.adapters.http.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.kernel.refusal.Refusal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

class AdapterArchiveTest {

    private static byte[] zip(String... namesAndContents) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            for (int i = 0; i < namesAndContents.length; i += 2) {
                zip.putNextEntry(new ZipEntry(namesAndContents[i]));
                zip.write(namesAndContents[i + 1].getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        return out.toByteArray();
    }

    private static Path unpack(byte[] archive, long maxBytes) {
        return AdapterArchive.unpack(new ByteArrayInputStream(archive), new ArchiveLimits(maxBytes, 1 << 20, 1000, 100));
    }

    private static final ArchiveLimits DEFAULTS = new ArchiveLimits(256L << 20, 1 << 20, 1000, 100);

    /** A zip of one entry of {@code bytes} bytes of {@code fill}, then the two adapter files. */
    private static byte[] zipWith(String name, int bytes, byte fill) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.putNextEntry(new ZipEntry(name));
            byte[] chunk = new byte[64 * 1024];
            java.util.Arrays.fill(chunk, fill);
            for (int left = bytes; left > 0; left -= chunk.length) {
                zip.write(chunk, 0, Math.min(left, chunk.length));
            }
            zip.closeEntry();
            for (String file : List.of("adapter_config.json", "adapter_model.safetensors")) {
                if (!file.equals(name)) {
                    zip.putNextEntry(new ZipEntry(file));
                    zip.write("{}".getBytes(StandardCharsets.UTF_8));
                    zip.closeEntry();
                }
            }
        }
        return out.toByteArray();
    }

    /** The refusal of {@code archive} under {@code limits}, and how many of its bytes were read before it. */
    private static RefusalException refused(byte[] archive, ArchiveLimits limits, long[] read) {
        InputStream counted = new java.io.FilterInputStream(new ByteArrayInputStream(archive)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                read[0] += Math.max(n, 0);
                return n;
            }
        };
        return assertThrows(RefusalException.class, () -> AdapterArchive.unpack(counted, limits));
    }

    @Test
    void aConfigThatInflatesPastItsBoundIsTooLargeAndInflatingStopsThere() throws IOException {
        byte[] bomb = zipWith("adapter_config.json", 16 << 20, (byte) ' ');
        assertTrue(bomb.length < 64 * 1024, "16 MB of spaces deflate to " + bomb.length + " bytes");
        long[] read = {0};
        RefusalException e = refused(bomb, DEFAULTS, read);
        assertEquals(Refusal.Reason.TOO_LARGE, e.refusal().reason());
        assertEquals("adapter", e.refusal().param());
        assertTrue(e.getMessage().contains("'adapter_config.json' unpacks to more than 1048576 bytes")
                && e.getMessage().contains("crucible.adapters.max-config-bytes"), e.getMessage());
        assertTrue(read[0] < bomb.length / 4, "stopped at the bound: read " + read[0] + " of " + bomb.length);
    }

    @Test
    void anEntryThatInflatesFarMoreThanItsCompressedSizeIsRefusedEvenWhenIgnored() throws IOException {
        RefusalException e = refused(zipWith("notes/README.md", 8 << 20, (byte) 0), DEFAULTS, new long[1]);
        assertEquals(Refusal.Reason.TOO_LARGE, e.refusal().reason());
        assertTrue(e.getMessage().contains("'notes/README.md' unpacks to more than 100 times its compressed size")
                && e.getMessage().contains("crucible.adapters.max-unpack-ratio"), e.getMessage());
        // weights that barely compress pass the ratio
        byte[] noise = new byte[3 << 20];
        new java.util.Random(1).nextBytes(noise);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.putNextEntry(new ZipEntry("adapter_model.safetensors"));
            zip.write(noise);
            zip.putNextEntry(new ZipEntry("adapter_config.json"));
            zip.write("{}".getBytes(StandardCharsets.UTF_8));
        }
        AdapterArchive.delete(AdapterArchive.unpack(new ByteArrayInputStream(out.toByteArray()), DEFAULTS));
    }

    @Test
    void ignoredEntriesCountTowardsTheArchivesTotal() throws IOException {
        RefusalException e = refused(zipWith("README.md", 3000, (byte) 'x'),
                new ArchiveLimits(2000, 1 << 20, 1000, 100), new long[1]);
        assertEquals(Refusal.Reason.TOO_LARGE, e.refusal().reason());
        assertTrue(e.getMessage().contains("crucible.adapters.max-unpacked-bytes"), e.getMessage());
    }

    @Test
    void aTruncatedArchiveIsA400AndATotalBoundNearLongMaxStillCounts() throws IOException {
        byte[] whole = zipWith("adapter_model.safetensors", 100_000, (byte) 'w');
        RefusalException e = refused(java.util.Arrays.copyOf(whole, 200), DEFAULTS, new long[1]);
        assertEquals(Refusal.Reason.INVALID, e.refusal().reason());
        AdapterArchive.delete(AdapterArchive.unpack(new ByteArrayInputStream(whole),
                new ArchiveLimits(Long.MAX_VALUE, Long.MAX_VALUE, 1000, 100)));
    }

    @Test
    void anArchiveOfTooManyEntriesIsRefused() throws IOException {
        String[] entries = new String[2 * 1001];
        for (int i = 0; i < 1001; i++) {
            entries[2 * i] = "empty-" + i;
            entries[2 * i + 1] = "";
        }
        RefusalException e = refused(zip(entries), DEFAULTS, new long[1]);
        assertEquals(Refusal.Reason.TOO_LARGE, e.refusal().reason());
        assertTrue(e.getMessage().contains("more than 1000 entries") && e.getMessage().contains(
                "crucible.adapters.max-entries"), e.getMessage());
    }

    @Test
    void entriesAreTakenByNameAloneSoNoPathInTheArchiveReachesTheDisk() throws IOException {
        Path folder = unpack(zip("../../escape/adapter_config.json", "{}", "/abs/adapter_model.safetensors", "w",
                "notes/README.md", "hi"), 1000);
        try (Stream<Path> files = Files.list(folder)) {
            assertEquals(List.of("adapter_config.json", "adapter_model.safetensors"),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        }
        assertArrayEquals("w".getBytes(StandardCharsets.UTF_8), Files.readAllBytes(folder.resolve("adapter_model.safetensors")));
        assertFalse(Files.exists(folder.getParent().getParent().resolve("escape")));
        AdapterArchive.delete(folder);
        assertFalse(Files.exists(folder));
    }

    @Test
    void anArchiveThatUnpacksPastTheBoundIsTooLarge() throws IOException {
        RefusalException e = assertThrows(RefusalException.class, () -> unpack(zip("adapter_config.json", "{}",
                "adapter_model.safetensors", "x".repeat(5000)), 1000));
        assertEquals(Refusal.Reason.TOO_LARGE, e.refusal().reason());
        assertEquals("adapter", e.refusal().param());
    }

    @Test
    void missingTwiceOrNotAnArchiveAre400sNamingTheAdapter() throws IOException {
        for (byte[] bad : List.of(zip("adapter_config.json", "{}"),
                zip("a/adapter_config.json", "{}", "b/adapter_config.json", "{}", "adapter_model.safetensors", "w"),
                "plain text".getBytes(StandardCharsets.UTF_8), new byte[0])) {
            RefusalException e = assertThrows(RefusalException.class, () -> unpack(bad, 1000));
            assertEquals(Refusal.Reason.INVALID, e.refusal().reason());
            assertEquals("adapter", e.refusal().param());
        }
    }
}
