package dev.crucible.adapters.http.idempotency;

import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.application.idempotency.IdempotentRequestsUseCase;
import dev.crucible.domain.idempotency.IdempotencyKey;
import dev.crucible.domain.idempotency.IdempotentRequest;
import dev.crucible.domain.idempotency.RecordedAnswer;
import dev.crucible.domain.tenancy.Caller;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.json.JsonMapper;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Answers a creating request, once per {@code Idempotency-Key} as Stripe's API does: without the header the
 * creation just runs; with it, the key is claimed first (per entity and route), the answer recorded after, and a
 * retry of the same request gets that answer again (marked {@code Idempotent-Replayed: true}) while nothing new is
 * created. A refused or failed creation frees its key, so the client may retry it.
 */
@Singleton
public final class IdempotentCreation {

    /** Set on an answer that was recorded earlier and is given again. */
    public static final String REPLAYED = "Idempotent-Replayed";

    private final IdempotentRequestsUseCase requests;
    private final JsonMapper json;

    IdempotentCreation(IdempotentRequestsUseCase requests, JsonMapper json) {
        this.requests = requests;
        this.json = json;
    }

    /**
     * @param key the header's value, null when the request has none
     * @param scope the kind of creation (one per route)
     * @param fingerprint the digest of the request's parameters ({@link RequestFingerprint}); asked only with a key
     * @param create runs the creation and returns the body to answer with (200)
     */
    public HttpResponse<?> answer(Caller caller, @Nullable String key, String scope, Supplier<String> fingerprint,
            Supplier<?> create) {
        if (key == null) {
            return HttpResponse.ok(create.get());
        }
        IdempotentRequest request = new IdempotentRequest(caller.entity(), scope,
                RefusalException.unwrap(IdempotencyKey.parse(key)), fingerprint.get());
        Optional<RecordedAnswer> earlier = RefusalException.unwrap(requests.begin(request));
        if (earlier.isPresent()) {
            return HttpResponse.status(HttpStatus.valueOf(earlier.get().status())).contentType(MediaType.APPLICATION_JSON)
                    .header(REPLAYED, "true").body(earlier.get().json());
        }
        String body;
        try {
            body = json.writeValueAsString(create.get());
        } catch (IOException e) {
            requests.release(request);
            throw new UncheckedIOException("cannot write the answer", e);
        } catch (RuntimeException | Error e) {
            requests.release(request);
            throw e;
        }
        requests.record(request, new RecordedAnswer(HttpStatus.OK.getCode(), body));
        return HttpResponse.ok(body).contentType(MediaType.APPLICATION_JSON);
    }
}
