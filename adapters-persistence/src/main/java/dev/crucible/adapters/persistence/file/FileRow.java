package dev.crucible.adapters.persistence.file;

import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.file.FilePurpose;
import dev.crucible.domain.file.StoredFile;
import dev.crucible.domain.tenancy.EntityName;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

/** A row of {@code files}. */
record FileRow(UUID id, String entity, String filename, String purpose, long bytes, Instant createdAt) {

    static final String COLUMNS = "id, entity, filename, purpose, bytes, created_at";

    static FileRow read(ResultSet rs) throws SQLException {
        return new FileRow(Sql.uuid(rs, "id"), rs.getString("entity"), rs.getString("filename"), rs.getString("purpose"),
                rs.getLong("bytes"), Sql.instant(rs, "created_at"));
    }

    static FileRow of(StoredFile file) {
        return new FileRow(file.id().value(), file.entity().value(), file.filename(), file.purpose().wireName(),
                file.bytes(), file.createdAt());
    }

    StoredFile toDomain() {
        FilePurpose kind = FilePurpose.parse(purpose)
                .orElseThrow(() -> new IllegalStateException("files.purpose holds an unknown purpose: " + purpose));
        return new StoredFile(new FileId(id), new EntityName(entity), filename, kind, bytes, createdAt);
    }
}
