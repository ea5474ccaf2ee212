package dev.crucible.adapters.persistence.tenancy;

import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.tenancy.ApiKeyStore;
import dev.crucible.domain.tenancy.ApiKey;
import dev.crucible.domain.tenancy.EntityName;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.util.Optional;

/** API keys in {@code api_keys}, by hash. */
@Singleton
@Transactional
class JdbcApiKeyStore implements ApiKeyStore {

    private final Sql sql;

    JdbcApiKeyStore(Sql sql) {
        this.sql = sql;
    }

    @Override
    public Optional<ApiKey> findByHash(String hash) {
        return sql.queryOne("SELECT id, entity, key_hash, created_at FROM api_keys WHERE key_hash = ?",
                rs -> new ApiKey(Sql.uuid(rs, "id"), new EntityName(rs.getString("entity")), rs.getString("key_hash"),
                        Sql.instant(rs, "created_at")), hash);
    }

    @Override
    public void saveIfAbsent(ApiKey key) {
        sql.update("INSERT INTO api_keys (id, entity, key_hash, created_at) VALUES (?, ?, ?, ?) "
                + "ON CONFLICT (key_hash) DO NOTHING", key.id(), key.entity().value(), key.hash(), key.createdAt());
    }
}
