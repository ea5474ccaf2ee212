package dev.crucible.adapters.persistence.primitives;

import dev.crucible.adapters.persistence.sql.JdbcStore;
import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.primitives.FailureCategory;
import dev.crucible.application.primitives.Operation;
import dev.crucible.application.primitives.OperationKind;
import dev.crucible.application.primitives.OperationLog;
import dev.crucible.application.primitives.OperationResult;
import dev.crucible.application.primitives.OperationState;
import dev.crucible.application.primitives.StoredOperation;
import dev.crucible.application.process.ProcessIdentity;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * The operation log in {@code training_operations}. An insert that meets the (sequence, seq_id) constraint does
 * nothing and reads the row that holds the place; PostgreSQL makes a concurrent insert of the same place wait for the
 * first transaction, so two requests never both take it. Each row is owned by this process ({@code owner}), which runs
 * it; the rows of a process whose heartbeat went stale are failed by whichever process sweeps first.
 */
@Singleton
@Transactional
class JdbcOperationLog extends JdbcStore implements OperationLog {

    private static final String COLUMNS = "request_id, entity, kind, model_id, sequence, seq_id, digest, status, "
            + "result::text AS result, error, category, created_at";

    private final OperationResultJson results;
    private final ProcessIdentity self;

    JdbcOperationLog(Sql sql, Json json, ProcessIdentity self) {
        super(sql, json);
        this.results = new OperationResultJson(json);
        this.self = self;
    }

    @Override
    public Optional<StoredOperation> insertUnlessSequenced(Operation op) {
        int inserted = sql.update("INSERT INTO training_operations (request_id, entity, kind, model_id, sequence, "
                + "seq_id, digest, status, created_at, owner) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?) "
                + "ON CONFLICT DO NOTHING",
                op.requestId(), op.entity().value(), op.kind().name(), op.run().map(ModelId::value).orElse(null),
                op.sequence().orElse(null), op.seqId().isPresent() ? op.seqId().getAsLong() : null, op.digest(),
                op.createdAt(), self.id());
        if (inserted == 1) {
            return Optional.empty();
        }
        Optional<StoredOperation> holder = op.sequence().isEmpty() ? Optional.empty()
                : sql.queryOne("SELECT " + COLUMNS + " FROM training_operations WHERE sequence = ? AND seq_id = ?",
                        this::map, op.sequence().get(), op.seqId().getAsLong());
        return Optional.of(holder.orElseThrow(() -> new IllegalStateException("operation " + op.requestId()
                + " was neither inserted nor found at its place (a request id used twice?)")));
    }

    @Override
    public Optional<StoredOperation> find(EntityName entity, UUID requestId) {
        return sql.queryOne("SELECT " + COLUMNS + " FROM training_operations WHERE request_id = ? AND entity = ?",
                this::map, requestId, entity.value());
    }

    @Override
    public void complete(UUID requestId, OperationResult result, Instant now) {
        sql.update("UPDATE training_operations SET status = 'done', result = ?::jsonb, finished_at = ? "
                + "WHERE request_id = ? AND status = 'pending'", results.write(result), now, requestId);
    }

    @Override
    public void fail(UUID requestId, String message, FailureCategory category, Instant now) {
        sql.update("UPDATE training_operations SET status = 'failed', error = ?, category = ?, finished_at = ? "
                + "WHERE request_id = ? AND status = 'pending'", message, category.wireName(), now, requestId);
    }

    @Override
    public int failOrphaned(String message, Instant staleBefore, Instant now) {
        // An owner that is not registered with a fresh heartbeat is dead (a null owner: a row from before owners,
        // unless it is queued for a run's worker and not yet taken: V16).
        return sql.update("UPDATE training_operations o SET status = 'failed', error = ?, category = 'server', "
                + "finished_at = ? WHERE o.status = 'pending' AND (o.owner IS NOT NULL OR o.command IS NULL) "
                + "AND NOT EXISTS (SELECT 1 FROM crucible_processes p "
                + "WHERE p.id = o.owner AND p.heartbeat_at >= ?)", message, now, staleBefore);
    }

    @Override
    public int failOwned(UUID owner, String message, Instant now) {
        return sql.update("UPDATE training_operations SET status = 'failed', error = ?, category = 'server', "
                + "finished_at = ? WHERE status = 'pending' AND owner = ?", message, now, owner);
    }

    private StoredOperation map(ResultSet rs) throws SQLException {
        UUID model = Sql.uuid(rs, "model_id");
        long seq = rs.getLong("seq_id");
        OptionalLong seqId = rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(seq);
        Operation op = new Operation(Sql.uuid(rs, "request_id"), new EntityName(rs.getString("entity")),
                OperationKind.valueOf(rs.getString("kind")), Optional.ofNullable(model).map(ModelId::new),
                Optional.ofNullable(rs.getString("sequence")), seqId, rs.getString("digest"),
                Sql.instant(rs, "created_at"));
        OperationState state = switch (rs.getString("status")) {
            case "pending" -> new OperationState.Pending();
            case "done" -> new OperationState.Done(results.read(rs.getString("result")));
            case "failed" -> new OperationState.Failed(rs.getString("error"),
                    FailureCategory.valueOf(rs.getString("category").toUpperCase(Locale.ROOT)));
            default -> throw new IllegalStateException("unknown operation status " + rs.getString("status"));
        };
        return new StoredOperation(op, state);
    }
}
