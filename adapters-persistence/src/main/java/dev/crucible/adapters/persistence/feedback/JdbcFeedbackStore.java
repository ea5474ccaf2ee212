package dev.crucible.adapters.persistence.feedback;

import dev.crucible.adapters.persistence.sql.JdbcStore;
import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.feedback.FeedbackStore;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.domain.feedback.Feedback;
import dev.crucible.domain.feedback.FeedbackField;
import dev.crucible.domain.feedback.FeedbackId;
import dev.crucible.domain.feedback.FeedbackQuery;
import dev.crucible.domain.feedback.ProjectId;
import io.micronaut.context.annotation.Value;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Feedback rows in {@code feedback}; queries translated by {@link FeedbackSql}, always within one project. */
@Singleton
@Transactional
class JdbcFeedbackStore extends JdbcStore implements FeedbackStore {

    /** The most rows one query returns, whatever its limit: results are held in memory. */
    static final long MAX_ROWS = 100_000;
    static final String TIMEOUT_SETTING = "crucible.feedback.query-timeout";
    /** PostgreSQL's {@code query_canceled}: here, the statement ran past {@code statement_timeout}. */
    private static final String QUERY_CANCELED = "57014";

    private final FeedbackSqlLimits limits;
    private final Duration timeout;

    JdbcFeedbackStore(Sql sql, Json json,
            @Value("${" + FeedbackSqlLimits.MAX_CHARS_SETTING + ":1000000}") long maxQuerySqlChars,
            @Value("${" + FeedbackSqlLimits.MAX_PARAMS_SETTING + ":30000}") int maxQueryParams,
            @Value("${" + TIMEOUT_SETTING + ":5s}") Duration timeout) {
        super(sql, json);
        if (timeout.toMillis() < 1) {
            throw new IllegalArgumentException(TIMEOUT_SETTING + " must be at least 1ms, got " + timeout);
        }
        this.limits = new FeedbackSqlLimits(maxQuerySqlChars, maxQueryParams);
        this.timeout = timeout;
    }

    @Override
    public Outcome<Feedback> insert(Feedback row) {
        return write(row);
    }

    @Override
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

    /**
     * The query's rows. Its SQL is bounded in size as it is built (a refusal then); its run is bounded by
     * {@value #TIMEOUT_SETTING} through PostgreSQL's {@code statement_timeout} for this transaction only. A query
     * cancelled at that bound leaves the transaction aborted, so it is refused by throwing (a rollback), not as a value.
     */
    @Override
    public Outcome<List<Map<String, Object>>> query(FeedbackQuery query) {
        Statement statement;
        try {
            statement = statement(query);
        } catch (RefusalException e) {
            return Outcome.refused(e.refusal());
        }
        sql.query("SELECT set_config('statement_timeout', ?, true)", rs -> rs.getString(1),
                timeout.toMillis() + "ms");
        try {
            return Outcome.done(sql.query(statement.text(), rs -> row(query, rs), statement.params()));
        } catch (RuntimeException e) {
            if (cancelled(e)) {
                throw RefusalException.invalid("query", "the query ran longer than " + TIMEOUT_SETTING + " ("
                        + timeout.toMillis() + " ms) and was stopped; narrow its filter or ask for fewer rows");
            }
            throw e;
        }
    }

    private static boolean cancelled(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException e && QUERY_CANCELED.equals(e.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    private record Statement(String text, Object[] params) {
    }

    private Statement statement(FeedbackQuery query) {
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
        return new Statement(text.toString(), params.toArray());
    }

    private Map<String, Object> row(FeedbackQuery query, ResultSet rs) throws SQLException {
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
    }

    @Override
    public int purge(ProjectId project, List<FeedbackId> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        return sql.update("DELETE FROM feedback WHERE project_id = ? AND id = ANY (?)", project.toString(),
                ids.stream().map(FeedbackId::value).toArray(java.util.UUID[]::new));
    }
}
