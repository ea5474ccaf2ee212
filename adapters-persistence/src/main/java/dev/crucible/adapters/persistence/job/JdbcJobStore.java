package dev.crucible.adapters.persistence.job;

import dev.crucible.adapters.persistence.sql.JdbcStore;
import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.job.JobEventStore;
import dev.crucible.application.job.JobStore;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.JobEventType;
import dev.crucible.domain.job.JobId;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.job.SftConfig;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.tenancy.EntityName;
import io.micronaut.serde.annotation.SerdeImport;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/** Job records, inputs and events in {@code training_jobs}, {@code training_job_specs}, {@code training_job_events}. */
@Singleton
@Transactional
@SerdeImport(RlConfig.class)
@SerdeImport(SftConfig.class)
class JdbcJobStore extends JdbcStore implements JobStore, JobEventStore {

    private final JobWrites writes;

    JdbcJobStore(Sql sql, Json json, JobWrites writes) {
        super(sql, json);
        this.writes = writes;
    }

    @Override
    public void enqueue(TrainingJob job, JobSpec spec) {
        JobRow row = JobRow.of(job);
        sql.update("INSERT INTO training_jobs (id, type, model_id, entity, status, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                row.id(), row.type(), row.modelId(), row.entity(), row.status(), row.createdAt());
        sql.update("INSERT INTO training_job_specs (job_id, spec) VALUES (?, CAST(? AS jsonb))",
                row.id(), json.write(StoredSpec.of(spec)));
    }

    @Override
    public OptionalLong enqueueWithin(TrainingJob job, JobSpec spec, int maxQueued) {
        // One entity's job creations queue on this lock for the rest of the transaction: count, then insert.
        String entity = job.entity().value();
        sql.lockUntilCommit("training_jobs/" + entity);
        long queued = sql.queryOne("SELECT count(*) FROM training_jobs WHERE entity = ? AND status = 'QUEUED'",
                rs -> rs.getLong(1), entity).orElseThrow();
        if (queued >= maxQueued) {
            return OptionalLong.of(queued);
        }
        enqueue(job, spec);
        return OptionalLong.empty();
    }

    @Override
    public Optional<TrainingJob> find(EntityName entity, JobId id) {
        return sql.queryOne("SELECT " + JobRow.COLUMNS + " FROM training_jobs WHERE entity = ? AND id = ?",
                JobRow::read, entity.value(), id.value()).map(JobRow::toDomain);
    }

    @Override
    public Map<String, Long> countByStatus() {
        Map<String, Long> counts = new LinkedHashMap<>();
        sql.query("SELECT status, count(*) FROM training_jobs GROUP BY status",
                rs -> counts.put(rs.getString(1), rs.getLong(2)));
        return counts;
    }

    @Override
    public List<TrainingJob> fetchPage(EntityName entity, PageRequest page, Optional<TrainingJob> after) {
        boolean asc = page.order() == SortOrder.ASC;
        String keyset = after.isEmpty() ? ""
                : " AND seq " + (asc ? ">" : "<") + " (SELECT seq FROM training_jobs WHERE id = ?)";
        Object[] params = after.isEmpty() ? new Object[] {entity.value(), page.fetchSize()}
                : new Object[] {entity.value(), after.get().id().value(), page.fetchSize()};
        return sql.query("SELECT " + JobRow.COLUMNS + " FROM training_jobs WHERE entity = ?" + keyset + " ORDER BY seq "
                + (asc ? "ASC" : "DESC") + " LIMIT ?", JobRow::read, params).stream().map(JobRow::toDomain).toList();
    }

    @Override
    public List<TrainingJob> active(ModelId model) {
        return sql.query("SELECT " + JobRow.COLUMNS + " FROM training_jobs WHERE model_id = ? "
                + "AND status IN ('QUEUED', 'RUNNING') ORDER BY seq", JobRow::read, model.value())
                .stream().map(JobRow::toDomain).toList();
    }

    @Override
    public Optional<JobSpec> spec(JobId id) {
        return sql.queryOne("SELECT spec::text FROM training_job_specs WHERE job_id = ?", rs -> rs.getString(1), id.value())
                .map(text -> json.read(text, StoredSpec.class).spec());
    }

    @Override
    public void append(JobEvent event) {
        writes.append(event);
    }

    @Override
    public boolean contains(JobId job, UUID eventId) {
        return sql.queryOne("SELECT 1 FROM training_job_events WHERE job_id = ? AND id = ?", rs -> 1,
                job.value(), eventId).isPresent();
    }

    @Override
    public List<JobEvent> fetch(JobId job, Optional<UUID> after, int count) {
        String keyset = after.isPresent() ? " AND seq > (SELECT seq FROM training_job_events WHERE id = ?)" : "";
        Object[] params = after.isPresent() ? new Object[] {job.value(), after.get(), count} : new Object[] {job.value(), count};
        return sql.query("SELECT id, job_id, type, data::text AS data, created_at FROM training_job_events WHERE job_id = ?"
                + keyset + " ORDER BY seq LIMIT ?", rs -> new JobEvent(Sql.uuid(rs, "id"), new JobId(Sql.uuid(rs, "job_id")),
                JobEventType.valueOf(rs.getString("type").toUpperCase(Locale.ROOT)), json.readObject(rs.getString("data")),
                Sql.instant(rs, "created_at")), params);
    }
}
