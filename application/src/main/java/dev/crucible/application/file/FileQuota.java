package dev.crucible.application.file;

/**
 * How much one entity may keep in the Files API.
 *
 * @param maxFiles the most files an entity may store ({@code crucible.files.max-per-entity})
 * @param maxBytes the most bytes its files may hold together ({@code crucible.files.max-bytes-per-entity})
 */
public record FileQuota(long maxFiles, long maxBytes) {

    public FileQuota {
        if (maxFiles < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("crucible.files.max-per-entity and crucible.files.max-bytes-per-entity "
                    + "must be >= 1, got " + maxFiles + " and " + maxBytes);
        }
    }

    /** Whether an entity that stores {@code files} files of {@code bytes} bytes may add one of {@code more} bytes. */
    public boolean admits(long files, long bytes, long more) {
        return files < maxFiles && bytes + more <= maxBytes;
    }
}
