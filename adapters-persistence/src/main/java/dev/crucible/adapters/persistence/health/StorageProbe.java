package dev.crucible.adapters.persistence.health;

import dev.crucible.application.health.Probe;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks that the data directory's file system has room: at least {@code crucible.storage.min-free-bytes} usable.
 * Below it, uploads, adapters and (with the embedded PostgreSQL) every write are about to fail with a 507.
 */
@Singleton
@Named("storage")
public class StorageProbe implements Probe {

    static final String SETTING = "crucible.storage.min-free-bytes";

    private final Path dataDir;
    private final long minFreeBytes;

    StorageProbe(@Value("${crucible.data-dir}") Path dataDir, @Value("${" + SETTING + ":67108864}") long minFreeBytes) {
        this.dataDir = dataDir;
        this.minFreeBytes = minFreeBytes;
    }

    @Override
    public void probe() throws IOException {
        Path existing = dataDir.toAbsolutePath();
        while (!Files.exists(existing) && existing.getParent() != null) {
            existing = existing.getParent();
        }
        FileStore store = Files.getFileStore(existing);
        check(store.getUsableSpace(), store.getTotalSpace(), minFreeBytes);
    }

    /** Throws, saying how much is free of how much, when fewer than {@code minFree} bytes are usable. */
    static void check(long usable, long total, long minFree) {
        if (usable < minFree) {
            throw new IllegalStateException("the data directory's disk is nearly full: " + usable + " bytes ("
                    + mib(usable) + ") free of " + total + " (" + mib(total) + "), below " + SETTING + " = " + minFree
                    + " (" + mib(minFree) + "); writes fail with 507 until space is freed");
        }
    }

    private static String mib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
