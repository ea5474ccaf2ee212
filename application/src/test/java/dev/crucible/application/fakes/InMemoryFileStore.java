package dev.crucible.application.fakes;

import dev.crucible.application.file.FileQuota;
import dev.crucible.application.file.FileStore;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.file.FileListRequest;
import dev.crucible.domain.file.StoredFile;
import dev.crucible.domain.tenancy.EntityName;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** File metadata in memory, ordered and paged like the database: by creation time, then id. */
public final class InMemoryFileStore implements FileStore {

    private static final Comparator<StoredFile> ORDER = Comparator.comparing(StoredFile::createdAt)
            .thenComparing(f -> f.id().value());

    private final Map<FileId, StoredFile> files = new LinkedHashMap<>();

    @Override
    public synchronized void insert(StoredFile file) {
        files.put(file.id(), file);
    }

    @Override
    public synchronized Optional<Stored> insertWithin(StoredFile file, FileQuota quota) {
        List<StoredFile> own = files.values().stream().filter(f -> f.entity().equals(file.entity())).toList();
        Stored stored = new Stored(own.size(), own.stream().mapToLong(StoredFile::bytes).sum());
        if (!quota.admits(stored.files(), stored.bytes(), file.bytes())) {
            return Optional.of(stored);
        }
        files.put(file.id(), file);
        return Optional.empty();
    }

    @Override
    public synchronized Optional<StoredFile> find(EntityName entity, FileId id) {
        return Optional.ofNullable(files.get(id)).filter(f -> f.entity().equals(entity));
    }

    @Override
    public synchronized List<StoredFile> fetchPage(EntityName entity, FileListRequest request, Optional<StoredFile> after) {
        Comparator<StoredFile> order = request.order() == SortOrder.ASC ? ORDER : ORDER.reversed();
        List<StoredFile> page = new ArrayList<>(files.values().stream().filter(f -> f.entity().equals(entity))
                .filter(f -> request.purpose().isEmpty() || request.purpose().get() == f.purpose())
                .filter(f -> after.isEmpty() || order.compare(f, after.get()) > 0)
                .sorted(order).limit(request.fetchSize()).toList());
        return page;
    }

    @Override
    public synchronized boolean delete(EntityName entity, FileId id) {
        return find(entity, id).map(f -> files.remove(id) != null).orElse(false);
    }

    public synchronized int size() {
        return files.size();
    }
}
