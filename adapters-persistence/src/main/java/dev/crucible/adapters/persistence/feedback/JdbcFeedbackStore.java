package dev.crucible.adapters.persistence.feedback;

import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.feedback.FeedbackStore;
import dev.crucible.domain.refusal.Outcome;
import dev.crucible.domain.refusal.Refusal;
import dev.crucible.domain.refusal.RefusalException;
import dev.crucible.domain.feedback.Feedback;
import dev.crucible.domain.feedback.FeedbackField;
import dev.crucible.domain.feedback.FeedbackId;
import dev.crucible.domain.feedback.FeedbackQuery;
import dev.crucible.domain.feedback.ProjectId;
import io.micronaut.context.annotation.Value;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Feedback rows in {@code feedback}; queries translated by {@link FeedbackSql}, always within one project. */
@Singleton
class JdbcFeedbackStore implements FeedbackStore {

    /** The most rows one query returns, whatever its limit: results are held in memory. */
    static final long MAX_ROWS = 100_000;

    private final Sql sql;
    private final Json json;
    private final FeedbackSqlLimits limits;

    JdbcFeedbackStore(Sql sql, Json json,
            @Value("${" + FeedbackSqlLimits.MAX_CHARS_SETTING + ":1000000}") long maxQuerySqlChars,
            @Value("${" + FeedbackSqlLimits.MAX_PARAMS_SETTING + ":30000}") int maxQueryParams) {
        this.sql = sql;
        this.json = json;
        this.limits = new FeedbackSqlLimits(maxQuerySqlChars, maxQueryParams);
    }

    @Override
    @Transactional
    public Outcome<Feedback> insert(Feedback row) {
        return write(row);
    }

    @Override
    @Transactional
    public Outcome<Feedback> replace(ProjectId project, FeedbackId toDelete, Feedback newRow) {
        // A refusal is a value, not an exception, so it would not roll this transaction back: the one write that can
        // be refused (the new id taken by another row) goes first, and the old row is deleted only once it succeeded.
        // The same id is deleted first, since its own row is the conflict.
        if (newRow.id().equals(toDelete)) {
            delete(project, toDelete);
            return write(newRow);
        }
        Outcome<Feedback> written = write(newRow);
        if (written instanceof Outcome.Done<Feedback>) {
            delete(project, toDelete);
        }
        return written;
    }

    private void delete(ProjectId project, FeedbackId id) {
        sql.update("DELETE FROM feedback WHERE project_id = ? AND id = ?", project.toString(), id.value());
    }

    private Outcome<Feedback> write(Feedback feedback) {
        FeedbackRow r = FeedbackRow.of(feedback, json);
        int inserted = sql.update("INSERT INTO feedback (project_id, id, svc_ref, svc_user_id, creator, created_at, "
                + "feedback_type, payload, annotation_ref, runnable_ref, call_ref, trigger_ref, queue_id) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, CAST(? AS jsonb), ?, ?, ?, ?, ?) ON CONFLICT (project_id, id) DO NOTHING",
                r.projectId(), r.id(), r.svcRef(), r.svcUserId(), r.creator(), r.createdAt(), r.feedbackType(),
                r.payload(), r.annotationRef(), r.runnableRef(), r.callRef(), r.triggerRef(), r.queueId());
        if (inserted == 0) {
            return Outcome.refused(Refusal.conflict("id", "feedback " + feedback.id() + " already exists in project "
                    + feedback.project()));
        }
        return Outcome.done(feedback);
    }

    @Override
    @Transactional
    public Outcome<List<Map<String, Object>>> query(FeedbackQuery query) {
        try {
            return Outcome.done(select(query));
        } catch (RefusalException e) {
            return Outcome.refused(e.refusal());
        }
    }

    private List<Map<String, Object>> select(FeedbackQuery query) {
        List<Object> params = new ArrayList<>();
        StringBuilder text = new StringBuilder("SELECT " + FeedbackRow.COLUMNS);
        for (int i = 0; i < query.fields().size(); i++) {
            FeedbackField field = query.fields().get(i);
            if (field instanceof FeedbackField.PayloadPath) {
                SqlFragment value = FeedbackSql.field(field);
                text.append(", (").append(value.sql()).append(")::text AS path_").append(i);
                params.addAll(value.params());
            }
        }
        text.append(" FROM feedback WHERE project_id = ?");
        params.add(query.project().toString());
        if (query.filter().isPresent()) {
            SqlFragment condition = FeedbackSql.condition(query.filter().get(), limits);
            text.append(" AND ").append(condition.sql());
            params.addAll(condition.params());
        }
        SqlFragment order = FeedbackSql.orderBy(query.sortBy());
        text.append(order.sql()).append(" LIMIT ? OFFSET ?");
        params.addAll(order.params());
        params.add(Math.min(query.limit().orElse(MAX_ROWS), MAX_ROWS));
        params.add(query.offset().orElse(0));
        limits.check(text.length(), params.size());
        return sql.query(text.toString(), rs -> {
            Map<String, Object> full = FeedbackRow.read(rs).toDomain(json).toRow();
            if (query.fields().isEmpty()) {
                return full;
            }
            Map<String, Object> selected = new LinkedHashMap<>();
            for (int i = 0; i < query.fields().size(); i++) {
                FeedbackField field = query.fields().get(i);
                selected.put(field.name(), field instanceof FeedbackField.Column c ? full.get(c.name())
                        : rs.getString("path_" + i));
            }
            return selected;
        }, params.toArray());
    }

    @Override
    @Transactional
    public int purge(ProjectId project, List<FeedbackId> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        return sql.update("DELETE FROM feedback WHERE project_id = ? AND id = ANY (?)", project.toString(),
                ids.stream().map(FeedbackId::value).toArray(java.util.UUID[]::new));
    }
}
