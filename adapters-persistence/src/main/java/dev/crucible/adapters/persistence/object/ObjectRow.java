package dev.crucible.adapters.persistence.object;

import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.object.ObjectName;
import dev.crucible.domain.object.StoredObject;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

/** A live row of {@code objects}, with whether it is the newest live version of its name. */
record ObjectRow(String entity, String project, String objectId, String digest, int versionIndex, String valDump,
        String baseObjectClass, String svcUserId, Instant createdAt, boolean latest) {

    /** Selects live rows as {@code o}; callers add conditions on {@code o} with {@code AND}. */
    static final String SELECT = "SELECT o.entity, o.project, o.object_id, o.digest, o.version_index, o.val_dump, "
            + "o.base_object_class, o.svc_user_id, o.created_at, o.version_index = (SELECT max(l.version_index) "
            + "FROM objects l WHERE l.entity = o.entity AND l.project = o.project AND l.object_id = o.object_id "
            + "AND l.deleted_at IS NULL) AS is_latest FROM objects o "
            + "WHERE o.deleted_at IS NULL AND o.entity = ? AND o.project = ? AND o.object_id = ? ";

    static ObjectRow read(ResultSet rs) throws SQLException {
        return new ObjectRow(rs.getString("entity"), rs.getString("project"), rs.getString("object_id"),
                rs.getString("digest"), rs.getInt("version_index"), rs.getString("val_dump"),
                rs.getString("base_object_class"), rs.getString("svc_user_id"), Sql.instant(rs, "created_at"),
                rs.getBoolean("is_latest"));
    }

    /** Maps to the domain, reading {@code val_dump} with {@code parseJson}. */
    StoredObject toDomain(Function<String, Object> parseJson) {
        return new StoredObject(new ProjectId(entity, project), new ObjectName(objectId), digest, versionIndex, latest,
                createdAt, parseJson.apply(valDump), Optional.ofNullable(baseObjectClass), svcUserId);
    }
}
