package dev.crucible.adapters.persistence.idempotency;

import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.idempotency.IdempotencyStore;
import dev.crucible.domain.idempotency.Claim;
import dev.crucible.domain.idempotency.IdempotentRequest;
import dev.crucible.domain.idempotency.RecordedAnswer;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.Optional;

/**
 * Keys in {@code idempotency_keys}. A claim inserts the key's row unless it exists; PostgreSQL makes a second
 * insert of the same key wait for the first transaction, so two claims at once never both win.
 */
@Singleton
@Transactional
class JdbcIdempotencyStore implements IdempotencyStore {

    private static final String KEY = "entity = ? AND scope = ? AND idem_key = ?";

    private final Sql sql;

    JdbcIdempotencyStore(Sql sql) {
        this.sql = sql;
    }

    private record Row(String fingerprint, Integer status, String answer) {
    }

    @Override
    public Claim claim(IdempotentRequest request, Instant now, Instant expiredBefore) {
        sql.update("DELETE FROM idempotency_keys WHERE created_at < ?", expiredBefore);
        int inserted = sql.update("INSERT INTO idempotency_keys (entity, scope, idem_key, fingerprint, created_at) "
                + "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", request.entity().value(), request.scope(),
                request.key().value(), request.fingerprint(), now);
        if (inserted == 1) {
            return new Claim.Granted();
        }
        Optional<Row> row = sql.queryOne("SELECT fingerprint, status, answer FROM idempotency_keys WHERE " + KEY,
                rs -> new Row(rs.getString(1), (Integer) rs.getObject(2), rs.getString(3)), key(request));
        // the row exists: the insert above found it, and only an expiry (which this transaction did) removes rows
        Row found = row.orElseThrow(() -> new IllegalStateException("idempotency key vanished while claimed"));
        if (!found.fingerprint().equals(request.fingerprint())) {
            return new Claim.Reused();
        }
        return found.status() == null ? new Claim.Pending()
                : new Claim.Answered(new RecordedAnswer(found.status(), found.answer()));
    }

    @Override
    public void record(IdempotentRequest request, RecordedAnswer answer) {
        sql.update("UPDATE idempotency_keys SET status = ?, answer = ? WHERE " + KEY + " AND status IS NULL",
                answer.status(), answer.json(), request.entity().value(), request.scope(), request.key().value());
    }

    @Override
    public void release(IdempotentRequest request) {
        sql.update("DELETE FROM idempotency_keys WHERE " + KEY + " AND status IS NULL", key(request));
    }

    private static Object[] key(IdempotentRequest request) {
        return new Object[] {request.entity().value(), request.scope(), request.key().value()};
    }
}
