package dev.crucible.application.fakes;

import dev.crucible.application.file.FileContents;
import dev.crucible.domain.file.FileId;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/** File bytes in memory; keeps nothing of an upload over the bound, like the disk store. */
public final class InMemoryFileContents implements FileContents {

    private final Map<FileId, byte[]> blobs = new HashMap<>();

    @Override
    public synchronized OptionalLong write(FileId id, InputStream content, long maxBytes) {
        try {
            byte[] bytes = content.readNBytes(Math.toIntExact(maxBytes + 1));
            if (bytes.length > maxBytes) {
                return OptionalLong.empty();
            }
            blobs.put(id, bytes);
            return OptionalLong.of(bytes.length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized InputStream open(FileId id) {
        byte[] bytes = blobs.get(id);
        if (bytes == null) {
            throw new UncheckedIOException(new IOException("no blob for " + id));
        }
        return new ByteArrayInputStream(bytes);
    }

    @Override
    public synchronized void delete(FileId id) {
        blobs.remove(id);
    }

    public synchronized int size() {
        return blobs.size();
    }

    public synchronized boolean contains(FileId id) {
        return blobs.containsKey(id);
    }
}
