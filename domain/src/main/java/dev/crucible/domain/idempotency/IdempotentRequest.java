package dev.crucible.domain.idempotency;

import dev.crucible.kernel.invariant.NonNull;
import dev.crucible.domain.tenancy.EntityName;

/**
 * One creating request named by a key: whose it is, which kind of creation ({@code scope}, one per route, so the
 * same key may name a job and a file), and the fingerprint of what was asked, which tells a retry from a reuse of
 * the key for something else.
 *
 * @param fingerprint a digest of the request's parameters (body and path), equal for equal requests
 */
public record IdempotentRequest(EntityName entity, String scope, IdempotencyKey key, String fingerprint) {

    public IdempotentRequest {
        NonNull.components(IdempotentRequest.class, entity, scope, key, fingerprint);
    }
}
