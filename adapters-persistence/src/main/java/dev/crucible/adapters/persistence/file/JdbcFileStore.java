package dev.crucible.adapters.persistence.file;

import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.file.FileQuota;
import dev.crucible.application.file.FileStore;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.file.FileListRequest;
import dev.crucible.domain.file.StoredFile;
import dev.crucible.domain.tenancy.EntityName;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** File metadata in {@code files}; every statement is scoped by entity; pages by (created_at, id). */
@Singleton
@Transactional
class JdbcFileStore implements FileStore {

    private final Sql sql;

    JdbcFileStore(Sql sql) {
        this.sql = sql;
    }

    @Override
    public void insert(StoredFile file) {
        FileRow row = FileRow.of(file);
        sql.update("INSERT INTO files (" + FileRow.COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?)", row.id(), row.entity(),
                row.filename(), row.purpose(), row.bytes(), row.createdAt());
    }

    @Override
    public Optional<Stored> insertWithin(StoredFile file, FileQuota quota) {
        // One entity's uploads queue on this lock for the rest of the transaction: count, then insert.
        sql.lockUntilCommit("files/" + file.entity().value());
        Stored stored = sql.queryOne("SELECT count(*), coalesce(sum(bytes), 0) FROM files WHERE entity = ?",
                rs -> new Stored(rs.getLong(1), rs.getLong(2)), file.entity().value()).orElseThrow();
        if (!quota.admits(stored.files(), stored.bytes(), file.bytes())) {
            return Optional.of(stored);
        }
        insert(file);
        return Optional.empty();
    }

    @Override
    public Optional<StoredFile> find(EntityName entity, FileId id) {
        return sql.queryOne("SELECT " + FileRow.COLUMNS + " FROM files WHERE entity = ? AND id = ?", FileRow::read,
                entity.value(), id.value()).map(FileRow::toDomain);
    }

    @Override
    public List<StoredFile> fetchPage(EntityName entity, FileListRequest request, Optional<StoredFile> after) {
        boolean asc = request.order() == SortOrder.ASC;
        StringBuilder text = new StringBuilder("SELECT " + FileRow.COLUMNS + " FROM files WHERE entity = ?");
        List<Object> params = new ArrayList<>(List.of(entity.value()));
        request.purpose().ifPresent(purpose -> {
            text.append(" AND purpose = ?");
            params.add(purpose.wireName());
        });
        after.ifPresent(file -> {
            // The cursor row is read back from the table, so its created_at has the column's precision.
            text.append(asc ? " AND (created_at, id) > (?, ?)" : " AND (created_at, id) < (?, ?)");
            params.add(file.createdAt());
            params.add(file.id().value());
        });
        String direction = asc ? "ASC" : "DESC";
        text.append(" ORDER BY created_at ").append(direction).append(", id ").append(direction).append(" LIMIT ?");
        params.add(request.fetchSize());
        return sql.query(text.toString(), FileRow::read, params.toArray()).stream().map(FileRow::toDomain).toList();
    }

    @Override
    public boolean delete(EntityName entity, FileId id) {
        return sql.update("DELETE FROM files WHERE entity = ? AND id = ?", entity.value(), id.value()) > 0;
    }
}
