package dev.crucible.application.tenancy;

import dev.crucible.domain.tenancy.ApiKey;
import dev.crucible.domain.tenancy.ApiKeySecret;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Clock;
import java.util.Optional;

/** Authenticates callers and issues keys; only hashes ever reach the store. */
public record ApiKeyService(ApiKeyStore store, Clock clock) implements AuthenticateUseCase, IssueApiKeyUseCase {

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
