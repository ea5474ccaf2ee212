package dev.crucible.application.blob;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The files of one multi-file thing (an uploaded file is one {@code content}; an adapter is its PEFT folder, with the
 * optimiser state beside it when saved), each an object of the store. Written after all its objects, so whoever finds
 * a manifest finds every object it names. Its text is one line per file, {@code <sha256> <size> <path>}, sorted by
 * path, so equal manifests have equal text and equal {@link #digest()}.
 *
 * @param files relative paths ({@link ManifestName}'s rules) to their objects; at least one
 */
public record BlobManifest(SortedMap<String, StoredBlob> files) {

    public BlobManifest {
        Objects.requireNonNull(files, "files");
        if (files.isEmpty()) {
            throw new IllegalArgumentException("files must name at least one file");
        }
        files.forEach((path, blob) -> {
            if (!ManifestName.isValid(path)) {
                throw new IllegalArgumentException("files path must be a safe relative path, got '" + path + "'");
            }
            Objects.requireNonNull(blob, "files[" + path + "]");
        });
        files = Collections.unmodifiableSortedMap(new TreeMap<>(files));
    }

    /** A manifest of {@code files}, in any order. */
    public static BlobManifest of(Map<String, StoredBlob> files) {
        return new BlobManifest(new TreeMap<>(files));
    }

    /** The bytes of all its files together. */
    public long size() {
        return files.values().stream().mapToLong(StoredBlob::size).sum();
    }

    /** The manifest's text: its lines, each ending in a newline. */
    public String text() {
        StringBuilder text = new StringBuilder();
        files.forEach((path, blob) -> text.append(blob.digest().hex()).append(' ').append(blob.size()).append(' ')
                .append(path).append('\n'));
        return text.toString();
    }

    /** The SHA-256 of {@link #text()}: equal for equal manifests, so it names the manifest's materialised folder. */
    public BlobDigest digest() {
        try {
            return BlobDigest.of(MessageDigest.getInstance("SHA-256").digest(text().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /**
     * Reads the text {@link #text()} writes.
     *
     * @throws IllegalArgumentException when {@code text} is not a manifest (a stored manifest is never that: it
     *         names broken storage)
     */
    public static BlobManifest parse(String text) {
        SortedMap<String, StoredBlob> files = new TreeMap<>();
        for (String line : text.split("\n")) {
            String[] parts = line.split(" ", 3);
            if (parts.length != 3) {
                throw new IllegalArgumentException("manifest line must be '<sha256> <size> <path>', got '" + line + "'");
            }
            long size;
            try {
                size = Long.parseLong(parts[1]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("manifest size must be a number, got '" + parts[1] + "'", e);
            }
            files.put(parts[2], new StoredBlob(new BlobDigest(parts[0]), size));
        }
        return new BlobManifest(files);
    }
}
