package dev.crucible.server.database;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;

/**
 * Files only their owner may read: the data directory (0700) and the embedded database's password file (0600).
 * On a file system without POSIX permissions the modes are left as they are.
 */
public final class PrivateFiles {

    static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final SecureRandom RANDOM = new SecureRandom();

    private PrivateFiles() {
    }

    /** Creates {@code dir} if missing and makes it 0700, whoever made it before. */
    public static void directory(Path dir) {
        try {
            Files.createDirectories(dir);
            if (posix(dir)) {
                Files.setPosixFilePermissions(dir, DIRECTORY);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the data directory", e);
        }
    }

    /**
     * The secret kept in {@code file}, made 0600; when the file is missing, a new random secret (256 bits,
     * URL-safe Base64) is written there first, atomically, so that a crash never leaves half a secret.
     */
    static String secret(Path file) {
        try {
            if (!Files.exists(file)) {
                write(file, newSecret());
            } else if (posix(file)) {
                Files.setPosixFilePermissions(file, FILE);
            }
            String secret = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (secret.isEmpty()) {
                throw new IllegalStateException("the embedded database's password file is empty: " + file.getFileName());
            }
            return secret;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write the embedded database's password file", e);
        }
    }

    static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Writes {@code text} to {@code file} (0600 from its creation on) through a temporary file and a rename. */
    static void write(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        if (posix(file.getParent())) {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(FILE));
        } else {
            Files.createFile(tmp);
        }
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static boolean posix(Path path) {
        return Files.getFileAttributeView(path, java.nio.file.attribute.PosixFileAttributeView.class) != null;
    }
}
