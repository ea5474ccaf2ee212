package dev.crucible.adapters.http.model;

import dev.crucible.domain.refusal.RefusalException;
import dev.crucible.application.model.ImportAdapterService;
import dev.crucible.domain.refusal.Refusal;
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
 * works too), ignores the rest (PEFT's README), never uses an entry's path on disk, and stops past a byte bound.
 */
final class AdapterArchive {

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
     * ({@link #delete}), reading {@code archive} to its end (so that a digest of it covers the whole body); a body that is not such an archive, lacks a file, holds one twice or unpacks to more than
     * {@code maxBytes} is a 400 naming {@code adapter}.
     */
    static Path unpack(InputStream archive, long maxBytes) {
        Path folder;
        try {
            folder = Files.createTempDirectory("crucible-adapter-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a folder for an uploaded adapter", e);
        }
        try {
            Set<String> found = new HashSet<>();
            long total = 0;
            ZipInputStream zip = new ZipInputStream(archive);
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                String name = entry.getName().substring(entry.getName().lastIndexOf('/') + 1);
                if (entry.isDirectory() || !ImportAdapterService.FILES.contains(name)) {
                    continue;
                }
                if (!found.add(name)) {
                    throw invalid("the archive holds " + name + " twice");
                }
                total += copyBounded(zip, folder.resolve(name), maxBytes - total);
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
        } catch (ZipException e) {
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

    private static long copyBounded(InputStream in, Path target, long remaining) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long written = 0;
        try (OutputStream out = Files.newOutputStream(target)) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                written += n;
                if (written > remaining) {
                    throw new RefusalException(new Refusal(Refusal.Reason.TOO_LARGE,
                            "the adapter unpacks to more bytes than a body may hold (setting crucible.max-body-bytes)",
                            "adapter"));
                }
                out.write(buffer, 0, n);
            }
        }
        return written;
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
}
