package dev.crucible.adapters.http.role;

import dev.crucible.adapters.http.error.ErrorEnvelope;
import dev.crucible.application.process.ProcessRole;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Filter;
import io.micronaut.http.filter.HttpServerFilter;
import io.micronaut.http.filter.ServerFilterChain;
import io.micronaut.http.filter.ServerFilterPhase;
import java.util.Optional;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * Answers the routes this process's role does not serve ({@link RoleRoutes}) with the one error envelope, before
 * authentication or any body is read, so a worker's API routes look absent whatever the caller sends.
 */
@Filter(Filter.MATCH_ALL_PATTERN)
final class RoleFilter implements HttpServerFilter {

    private final RoleRoutes routes;

    RoleFilter(ProcessRole role) {
        this.routes = new RoleRoutes(role);
    }

    @Override
    public int getOrder() {
        // Before the body admission filter (FIRST) and security: a refused route reads nothing.
        return ServerFilterPhase.FIRST.before();
    }

    @Override
    public Publisher<MutableHttpResponse<?>> doFilter(HttpRequest<?> request, ServerFilterChain chain) {
        Optional<RoleRoutes.Refused> refused = routes.refusal(request.getPath());
        if (refused.isEmpty()) {
            return chain.proceed(request);
        }
        RoleRoutes.Refused r = refused.get();
        return Mono.just(HttpResponse.status(io.micronaut.http.HttpStatus.valueOf(r.status()))
                .body(ErrorEnvelope.of(r.status(), r.message(), null)));
    }
}
