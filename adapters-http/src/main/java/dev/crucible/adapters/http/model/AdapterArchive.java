package dev.crucible.adapters.http.model;

import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.application.model.ImportAdapterService;
import dev.crucible.kernel.refusal.Excerpt;
import dev.crucible.kernel.refusal.Refusal;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * A PEFT adapter folder as a zip archive, the way it travels over HTTP: {@code adapter_config.json} and
 * {@code adapter_model.safetensors}, which PEFT's {@code from_pretrained} and vLLM's {@code --lora-modules} read once
 * unpacked. Unpacking takes those two files by name from any folder of the archive (an archive of the folder itself
 * works too), ignores the rest (PEFT's README), never uses an entry's path on disk, and stops at the first byte past
 * a bound on what the entries inflate to ({@link ArchiveLimits}).
 */
final class AdapterArchive {

    /** PEFT's configuration file, the one entry read whole into memory later, so bounded on its own. */
    private static final String CONFIG = "adapter_config.json";

    private AdapterArchive() {
    }

    /** Writes {@code folder}'s adapter files to {@code out} as a zip (the weights barely compress: level 1). */
    static void write(Path folder, OutputStream out) throws IOException {
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            zip.setLevel(Deflater.BEST_SPEED);
            for (String file : ImportAdapterService.FILES) {
                zip.putNextEntry(new ZipEntry(file));
                Files.copy(folder.resolve(file), zip);
                zip.closeEntry();
            }
        }
    }

    /**
     * Unpacks the adapter files of a zip into a new private temporary folder, which the caller deletes
     * ({@link #delete}), reading {@code archive} to its end (so that a digest of it covers the whole body). Every
     * entry is inflated under {@code limits}, counted as it inflates and stopped at the first byte past a bound (a
     * 413 naming {@code adapter} and the setting); the entries it does not keep are inflated and counted too. A body
     * that is not such an archive, lacks a file or holds one twice is a 400 naming {@code adapter}.
     */
    static Path unpack(InputStream archive, ArchiveLimits limits) {
        Path folder;
        try {
            folder = Files.createTempDirectory("crucible-adapter-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a folder for an uploaded adapter", e);
        }
        try {
            Set<String> found = new HashSet<>();
            CountingInputStream compressed = new CountingInputStream(archive);
            ZipInputStream zip = new ZipInputStream(compressed);
            long total = 0;
            int entries = 0;
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                if (++entries > limits.maxEntries()) {
                    throw tooLarge("the archive holds more than " + limits.maxEntries() + " entries",
                            "crucible.adapters.max-entries");
                }
                String name = entry.getName().substring(entry.getName().lastIndexOf('/') + 1);
                boolean kept = !entry.isDirectory() && ImportAdapterService.FILES.contains(name);
                if (kept && !found.add(name)) {
                    throw invalid("the archive holds " + name + " twice");
                }
                try (OutputStream out = kept ? Files.newOutputStream(folder.resolve(name))
                        : OutputStream.nullOutputStream()) {
                    total += inflate(zip, out, new Bounds(entry.getName(), name.equals(CONFIG)
                            ? limits.maxConfigBytes() : Long.MAX_VALUE, limits.maxUnpackedBytes() - total,
                            limits.maxRatio(), compressed));
                }
            }
            archive.transferTo(OutputStream.nullOutputStream()); // the central directory after the last entry
            for (String file : ImportAdapterService.FILES) {
                if (!found.contains(file)) {
                    throw invalid(found.isEmpty() && total == 0
                            ? "must be a zip archive of a PEFT adapter folder (" + String.join(", ",
                                    ImportAdapterService.FILES) + "), found none of its files"
                            : "the archive has no " + file);
                }
            }
            return folder;
        } catch (ZipException | EOFException e) { // EOF: a truncated entry (the upload itself arrived whole)
            delete(folder);
            throw invalid("is not a readable zip archive");
        } catch (IOException e) {
            delete(folder);
            throw new UncheckedIOException("cannot unpack an uploaded adapter", e);
        } catch (RuntimeException e) {
            delete(folder);
            throw e;
        }
    }

    /** What one entry may inflate to: its own bound, what is left of the archive's, and the ratio. */
    private record Bounds(String entry, long entryBytes, long remainingBytes, int ratio,
            CountingInputStream compressed) {
    }

    /** Inflates the current entry into {@code out}, never reading more than one byte past a bound. */
    private static long inflate(InputStream zip, OutputStream out, Bounds bounds) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long start = bounds.compressed().count();
        long limit = Math.min(bounds.entryBytes(), bounds.remainingBytes());
        long written = 0;
        while (true) {
            int n = zip.read(buffer, 0, (int) Math.min(buffer.length - 1, limit - written) + 1);
            if (n < 0) {
                return written;
            }
            written += n;
            if (written > bounds.entryBytes()) {
                throw tooLarge(Excerpt.of(bounds.entry()) + " unpacks to more than " + bounds.entryBytes() + " bytes",
                        "crucible.adapters.max-config-bytes");
            }
            if (written > bounds.remainingBytes()) {
                throw tooLarge("the archive unpacks to more bytes than its bound", "crucible.adapters.max-unpacked-bytes");
            }
            long read = bounds.compressed().count() - start + 1;
            if (written > ArchiveLimits.RATIO_FROM && written / read > bounds.ratio()) {
                throw tooLarge(Excerpt.of(bounds.entry()) + " unpacks to more than " + bounds.ratio()
                        + " times its compressed size", "crucible.adapters.max-unpack-ratio");
            }
            out.write(buffer, 0, n);
        }
    }

    /** Removes a folder made by {@link #unpack}. */
    static void delete(Path folder) {
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove an unpacked adapter", e);
        }
    }

    private static RefusalException invalid(String problem) {
        return RefusalException.invalid("adapter", "adapter " + problem);
    }

    private static RefusalException tooLarge(String problem, String setting) {
        return new RefusalException(new Refusal(Refusal.Reason.TOO_LARGE, "adapter: " + problem + " (setting "
                + setting + ")", "adapter"));
    }

    /** Counts the bytes read through it: the compressed bytes an entry has taken so far. */
    private static final class CountingInputStream extends FilterInputStream {
        private long count;

        CountingInputStream(InputStream in) {
            super(in);
        }

        long count() {
            return count;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            count += b < 0 ? 0 : 1;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            count += Math.max(n, 0);
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(n);
            count += skipped;
            return skipped;
        }
    }
}
