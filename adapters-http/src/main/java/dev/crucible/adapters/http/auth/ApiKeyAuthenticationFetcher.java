package dev.crucible.adapters.http.auth;

import dev.crucible.application.tenancy.AuthenticateUseCase;
import dev.crucible.domain.tenancy.ApiKeySecret;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.filters.AuthenticationFetcher;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Authenticates by API key: {@code Authorization: Bearer <key>} everywhere, and also
 * {@code Authorization: Basic base64(<any user>:<key>)} on the feedback and object routes (Weave clients send
 * user {@code api}); and {@code X-API-Key: tml-<key>} on the training primitives' routes ({@link PresentedKey}). The key is looked up by hash on the blocking executor; it is never logged.
 */
@Singleton
final class ApiKeyAuthenticationFetcher implements AuthenticationFetcher<HttpRequest<?>> {

    private final AuthenticateUseCase authenticate;
    private final ExecutorService blocking;

    ApiKeyAuthenticationFetcher(AuthenticateUseCase authenticate, @Named(TaskExecutors.BLOCKING) ExecutorService blocking) {
        this.authenticate = authenticate;
        this.blocking = blocking;
    }

    @Override
    public Publisher<Authentication> fetchAuthentication(HttpRequest<?> request) {
        Optional<ApiKeySecret> secret = presentedKey(request);
        if (secret.isEmpty()) {
            return Mono.empty();
        }
        return Mono.fromCallable(() -> authenticate.authenticate(secret.get()))
                .subscribeOn(Schedulers.fromExecutorService(blocking))
                .flatMap(caller -> caller.map(c -> Mono.just(Authentication.build(c.entity().value(), List.of(),
                        Map.of(CallerArgument.KEY_ID, c.keyId().toString())))).orElseGet(Mono::empty));
    }

    static Optional<ApiKeySecret> presentedKey(HttpRequest<?> request) {
        return PresentedKey.of(request.getHeaders().get(HttpHeaders.AUTHORIZATION),
                request.getHeaders().get(PresentedKey.API_KEY_HEADER), request.getPath());
    }
}
