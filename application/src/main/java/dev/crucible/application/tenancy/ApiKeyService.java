package dev.crucible.application.tenancy;

import dev.crucible.domain.tenancy.ApiKey;
import dev.crucible.domain.tenancy.ApiKeySecret;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;

/** Authenticates callers and issues keys; only hashes ever reach the store. */
public final class ApiKeyService implements AuthenticateUseCase, IssueApiKeyUseCase {

    private final ApiKeyStore store;
    private final Clock clock;

    public ApiKeyService(ApiKeyStore store, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public Optional<Caller> authenticate(ApiKeySecret secret) {
        return store.findByHash(secret.hash()).map(ApiKey::asCaller);
    }

    @Override
    public ApiKeySecret issue(EntityName entity) {
        ApiKeySecret secret = ApiKeySecret.generate();
        store.saveIfAbsent(ApiKey.issue(entity, secret, clock.instant()));
        return secret;
    }

    @Override
    public void register(EntityName entity, ApiKeySecret secret) {
        store.saveIfAbsent(ApiKey.issue(entity, secret, clock.instant()));
    }
}
