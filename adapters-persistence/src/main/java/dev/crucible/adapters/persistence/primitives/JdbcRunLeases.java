package dev.crucible.adapters.persistence.primitives;

import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.primitives.Operation;
import dev.crucible.application.primitives.QueuedOperation;
import dev.crucible.application.primitives.RunCommand;
import dev.crucible.application.primitives.RunLeases;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Run leases in {@code training_runs (owner, lease_until, unloaded)} and queued operations in
 * {@code training_operations (command, key_id)} (V16). A claim locks the candidate runs with {@code FOR UPDATE SKIP
 * LOCKED}, as the job queue does, so two workers claiming at once take disjoint runs; taking an operation checks the
 * run's lease in the same statement, so a worker whose lease was taken over takes nothing more.
 */
@Singleton
@Transactional
class JdbcRunLeases implements RunLeases {

    /** A run's queued rows: pending, taken by no one, with a command. */
    private static final String QUEUED = "o.status = 'pending' AND o.owner IS NULL AND o.command IS NOT NULL";

    private final Sql sql;
    private final RunCommandJson commands;

    JdbcRunLeases(Sql sql, Json json) {
        this.sql = sql;
        this.commands = new RunCommandJson(json);
    }

    @Override
    public Enqueued enqueue(Operation op, Caller caller, RunCommand command, int maxPerKey) {
        if (op.run().isEmpty() || op.seqId().isEmpty()) {
            throw new IllegalArgumentException("a queued operation belongs to a run and has a seq_id: " + op);
        }
        UUID key = caller.keyId();
        // one writer per key at a time, on every process, until this transaction ends: the count below stays true
        sql.lockUntilCommit("training_operations/" + key);
        if (sql.queryOne("SELECT 1 FROM training_operations WHERE sequence = ? AND seq_id = ?", rs -> 1,
                op.sequence().orElseThrow(), op.seqId().getAsLong()).isPresent()) {
            return Enqueued.PLACE_TAKEN;
        }
        long pending = sql.queryOne("SELECT count(*) FROM training_operations WHERE key_id = ? AND status = 'pending'",
                rs -> rs.getLong(1), key).orElse(0L);
        if (pending >= maxPerKey) {
            return Enqueued.KEY_FULL;
        }
        return sql.update("INSERT INTO training_operations (request_id, entity, kind, model_id, sequence, seq_id, "
                + "digest, status, created_at, command, key_id) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?::jsonb, ?) "
                + "ON CONFLICT DO NOTHING", op.requestId(), op.entity().value(), op.kind().name(),
                op.run().get().value(), op.sequence().orElseThrow(), op.seqId().getAsLong(), op.digest(),
                op.createdAt(), commands.write(command), key) == 1 ? Enqueued.QUEUED : Enqueued.PLACE_TAKEN;
    }

    @Override
    public List<Claimed> claim(UUID owner, int max, Instant now, Instant until) {
        return sql.query("UPDATE training_runs r SET owner = ?, lease_until = ? WHERE r.model_id IN (SELECT t.model_id "
                + "FROM training_runs t WHERE NOT t.unloaded AND (t.owner IS NULL OR t.lease_until < ?) AND EXISTS "
                + "(SELECT 1 FROM training_operations o WHERE o.model_id = t.model_id AND " + QUEUED + ") "
                + "ORDER BY t.created_at LIMIT ? FOR UPDATE SKIP LOCKED) RETURNING r.model_id, r.entity",
                rs -> new Claimed(new ModelId(Sql.uuid(rs, "model_id")), new EntityName(rs.getString("entity"))),
                owner, until, now, max);
    }

    @Override
    public Set<ModelId> renew(UUID owner, Instant until) {
        return new HashSet<>(sql.query("UPDATE training_runs SET lease_until = ? WHERE owner = ? RETURNING model_id",
                rs -> new ModelId(Sql.uuid(rs, "model_id")), until, owner));
    }

    @Override
    public void release(UUID owner, ModelId run) {
        sql.update("UPDATE training_runs SET owner = NULL, lease_until = NULL WHERE model_id = ? AND owner = ?",
                run.value(), owner);
    }

    @Override
    public Optional<QueuedOperation> take(UUID owner, ModelId run) {
        return sql.queryOne("UPDATE training_operations SET owner = ? WHERE request_id = (SELECT o.request_id FROM "
                + "training_operations o JOIN training_runs r ON r.model_id = o.model_id WHERE o.model_id = ? AND "
                + "r.owner = ? AND " + QUEUED + " ORDER BY o.seq_id LIMIT 1 FOR UPDATE OF o SKIP LOCKED) "
                + "RETURNING request_id, entity, key_id, seq_id, command::text AS command",
                rs -> new QueuedOperation(Sql.uuid(rs, "request_id"), new Caller(new EntityName(rs.getString("entity")),
                        Sql.uuid(rs, "key_id")), run, rs.getLong("seq_id"), commands.read(rs.getString("command"))),
                owner, run.value(), owner);
    }

    @Override
    public void unloaded(UUID owner, ModelId run, String message, Instant now) {
        if (sql.update("UPDATE training_runs SET unloaded = true, owner = NULL, lease_until = NULL WHERE model_id = ? "
                + "AND owner = ?", run.value(), owner) == 1) {
            sql.update("UPDATE training_operations o SET status = 'failed', error = ?, category = 'user', "
                    + "finished_at = ? WHERE o.model_id = ? AND " + QUEUED, message, now, run.value());
        }
    }

    @Override
    public boolean isUnloaded(ModelId run) {
        return sql.queryOne("SELECT unloaded FROM training_runs WHERE model_id = ?", rs -> rs.getBoolean("unloaded"),
                run.value()).orElse(false);
    }
}
