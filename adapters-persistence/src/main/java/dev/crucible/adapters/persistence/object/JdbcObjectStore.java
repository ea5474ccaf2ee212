package dev.crucible.adapters.persistence.object;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.object.ObjectStore;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.object.NewObject;
import dev.crucible.domain.object.ObjectName;
import dev.crucible.domain.object.ObjectVersion;
import dev.crucible.domain.object.StoredObject;
import dev.crucible.domain.object.VersionSelector;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * Object versions in {@code objects}; every read is scoped by entity and project. {@code val_dump} holds the value
 * as Python's {@code json.dumps} writes it (the digest's text), so a float that overflowed or was infinite is
 * {@code Infinity} there, as in Weave: it is read back with {@code Infinity} and {@code NaN} allowed.
 */
@Singleton
@Transactional
class JdbcObjectStore implements ObjectStore {

    private static final ObjectMapper VAL_DUMP = new ObjectMapper(JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build());

    private final Sql sql;

    JdbcObjectStore(Sql sql) {
        this.sql = sql;
    }

    @Override
    public ObjectVersion insertUnlessExists(NewObject object) {
        ProjectId p = object.project();
        String name = object.name().value();
        // One creator per name at a time (until commit), so that the next index is computed from settled rows.
        sql.lockUntilCommit(p + "/" + name);
        Optional<Integer> existing = sql.queryOne("SELECT version_index FROM objects "
                + "WHERE entity = ? AND project = ? AND object_id = ? AND digest = ?", rs -> rs.getInt(1),
                p.entity(), p.project(), name, object.digest());
        if (existing.isPresent()) {
            return new ObjectVersion(object.name(), object.digest(), existing.get(), false);
        }
        int next = sql.queryOne("SELECT COALESCE(max(version_index) + 1, 0) FROM objects "
                + "WHERE entity = ? AND project = ? AND object_id = ?", rs -> rs.getInt(1),
                p.entity(), p.project(), name).orElse(0);
        sql.update("INSERT INTO objects (entity, project, object_id, digest, version_index, val_dump, "
                + "base_object_class, svc_user_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", p.entity(),
                p.project(), name, object.digest(), next, object.canonicalJson(), object.baseObjectClass().orElse(null),
                object.svcUserId(), object.createdAt());
        return new ObjectVersion(object.name(), object.digest(), next, true);
    }

    @Override
    public Optional<StoredObject> find(ProjectId project, ObjectName name, VersionSelector version) {
        Object[] scope = {project.entity(), project.project(), name.value()};
        Optional<ObjectRow> row = switch (version) {
            case VersionSelector.Latest latest ->
                    sql.queryOne(ObjectRow.SELECT + "ORDER BY o.version_index DESC LIMIT 1", ObjectRow::read, scope);
            case VersionSelector.Index index -> sql.queryOne(ObjectRow.SELECT + "AND o.version_index = ?",
                    ObjectRow::read, scope[0], scope[1], scope[2], index.value());
            case VersionSelector.Digest digest -> sql.queryOne(ObjectRow.SELECT + "AND o.digest = ?",
                    ObjectRow::read, scope[0], scope[1], scope[2], digest.value());
        };
        return row.map(r -> r.toDomain(this::parse));
    }

    private Object parse(String valDump) {
        try {
            return VAL_DUMP.readValue(valDump, Object.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read objects.val_dump", e);
        }
    }
}
