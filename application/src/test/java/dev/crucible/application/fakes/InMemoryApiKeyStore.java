package dev.crucible.application.fakes;

import dev.crucible.application.tenancy.ApiKeyStore;
import dev.crucible.domain.tenancy.ApiKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Keys by hash, like the real table's unique index. */
public final class InMemoryApiKeyStore implements ApiKeyStore {

    private final Map<String, ApiKey> byHash = new LinkedHashMap<>();

    @Override
    public synchronized Optional<ApiKey> findByHash(String hash) {
        return Optional.ofNullable(byHash.get(hash));
    }

    @Override
    public synchronized void saveIfAbsent(ApiKey key) {
        byHash.putIfAbsent(key.hash(), key);
    }

    public synchronized List<ApiKey> all() {
        return new ArrayList<>(byHash.values());
    }
}
