package dev.crucible.adapters.persistence.job;

import dev.crucible.adapters.persistence.sql.JdbcStore;
import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.job.JobCompletion;
import dev.crucible.application.job.JobQueue;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.JobEventType;
import dev.crucible.domain.job.TrainingJob;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The runner's side of {@code training_jobs}: row-locked claims, heartbeats and guarded endings. */
@Singleton
@Transactional
class JdbcJobQueue extends JdbcStore implements JobQueue {

    // The oldest queued job of a model with nothing running; SKIP LOCKED lets other runners pass it by.
    private static final String CLAIM = "SELECT " + JobRow.COLUMNS + " FROM training_jobs j WHERE j.status = 'QUEUED' "
            + "AND NOT EXISTS (SELECT 1 FROM training_jobs r WHERE r.model_id = j.model_id AND r.status = 'RUNNING') "
            + "AND NOT EXISTS (SELECT 1 FROM training_jobs e WHERE e.model_id = j.model_id AND e.status = 'QUEUED' "
            + "AND e.seq < j.seq) ORDER BY j.seq LIMIT 1 FOR UPDATE SKIP LOCKED";
    private static final String HELD = "SELECT 1 FROM training_jobs WHERE id = ? AND status = 'RUNNING' AND runner_id = ? "
            + "FOR UPDATE";

    private final JobWrites writes;

    JdbcJobQueue(Sql sql, Json json, JobWrites writes) {
        super(sql, json);
        this.writes = writes;
    }

    @Override
    public Optional<TrainingJob> claimNext(UUID runnerId, Instant now) {
        Optional<TrainingJob> queued = sql.queryOne(CLAIM, JobRow::read).map(JobRow::toDomain);
        if (queued.isEmpty()) {
            return Optional.empty();
        }
        TrainingJob running = queued.get().start(now, runnerId);
        writes.transition(running, "QUEUED", null);
        sql.update("UPDATE training_jobs SET heartbeat_at = ? WHERE id = ?", now, running.id().value());
        return Optional.of(running);
    }

    @Override
    public boolean heartbeat(TrainingJob job, UUID runnerId, Instant now) {
        return sql.update("UPDATE training_jobs SET heartbeat_at = ? WHERE id = ? AND status = 'RUNNING' AND runner_id = ?",
                now, job.id().value(), runnerId) == 1;
    }

    @Override
    public List<TrainingJob> stale(Instant before) {
        return sql.query("SELECT " + JobRow.COLUMNS + " FROM training_jobs WHERE status = 'RUNNING' AND heartbeat_at < ? "
                + "ORDER BY seq", JobRow::read, before).stream().map(JobRow::toDomain).toList();
    }

    @Override
    public boolean progress(TrainingJob job, UUID runnerId, JobEvent event) {
        if (!held(job, runnerId)) {
            return false;
        }
        writes.append(event);
        return true;
    }

    @Override
    public boolean requeue(TrainingJob requeued, UUID runnerId, JobEvent event) {
        return leave(requeued, runnerId, event);
    }

    @Override
    public boolean fail(TrainingJob failed, UUID runnerId, JobEvent event) {
        return leave(failed, runnerId, event);
    }

    /** Moves a job that {@code runnerId} holds to {@code next} (queued again, or ended) with its event. */
    private boolean leave(TrainingJob next, UUID runnerId, JobEvent event) {
        if (!writes.transition(next, "RUNNING", runnerId)) {
            return false;
        }
        writes.append(event);
        return true;
    }

    @Override
    public JobCompletion complete(TrainingJob running, UUID runnerId, int step, Map<String, Double> metrics,
            Instant now) {
        if (!held(running, runnerId)) {
            return new JobCompletion.NotHeld();
        }
        UUID model = running.modelId().value();
        // Holding the model's row orders this write after an adapter import that holds it (CheckpointStore.insertNext).
        if (sql.queryOne("SELECT 1 FROM models WHERE id = ? FOR UPDATE", rs -> 1, model).isEmpty()) {
            return new JobCompletion.NotHeld();
        }
        // The step is the trainer's; the unique (model_id, step) refuses it when it was taken meanwhile.
        UUID checkpoint = UUID.randomUUID();
        if (sql.update("INSERT INTO checkpoints (id, model_id, step, metrics, created_at) VALUES (?, ?, ?, "
                + "CAST(? AS jsonb), ?) ON CONFLICT (model_id, step) DO NOTHING",
                checkpoint, model, step, json.write(metrics), now) == 0) {
            return new JobCompletion.StepTaken(step);
        }
        // Lineage: an SFT job whose training data is one of its entity's datasets (dataset-<hex>), or an RL job whose
        // groups were read from one, learned from it.
        sql.update("INSERT INTO checkpoint_datasets (checkpoint_id, dataset_id) SELECT ?, d.id "
                + "FROM training_job_specs s JOIN datasets d ON d.entity = ? "
                + "AND 'dataset-' || replace(d.id::text, '-', '') IN (s.spec->>'training_data_url', s.spec->>'dataset_id') "
                + "WHERE s.job_id = ?",
                checkpoint, running.entity().value(), running.id().value());
        TrainingJob completed = running.complete(now, step);
        writes.transition(completed, "RUNNING", runnerId);
        writes.append(JobEvent.of(running.id(), JobEventType.TRAINING_ENDED, Map.of("step", step), now));
        return new JobCompletion.Completed(completed);
    }

    private boolean held(TrainingJob job, UUID runnerId) {
        return sql.queryOne(HELD, rs -> 1, job.id().value(), runnerId).isPresent();
    }
}
