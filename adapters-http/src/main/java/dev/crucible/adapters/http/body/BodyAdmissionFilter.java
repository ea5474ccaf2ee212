package dev.crucible.adapters.http.body;

import dev.crucible.adapters.http.error.ErrorEnvelope;
import dev.crucible.adapters.http.requestid.RequestIdFilter;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Filter;
import io.micronaut.http.filter.HttpServerFilter;
import io.micronaut.http.filter.ServerFilterChain;
import io.micronaut.http.filter.ServerFilterPhase;
import java.util.OptionalLong;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Admits a request's body before any of it is read: a declared length over the route's limit is a 413 at once, and
 * a body that would take the bytes in flight past {@code crucible.body.max-in-flight-bytes} is a 503 with
 * {@code Retry-After}. The reservation (the declared length, or the route's limit for a chunked body) is held until
 * the response is done or the client goes away, so it also covers the parsed request while it is handled.
 */
@Filter(Filter.MATCH_ALL_PATTERN)
record BodyAdmissionFilter(BodyLimits limits, BodyBudget budget) implements HttpServerFilter {

    private static final Logger LOG = LoggerFactory.getLogger(BodyAdmissionFilter.class);
    private static final String RETRY_AFTER_SECONDS = "2";

    @Override
    public int getOrder() {
        return ServerFilterPhase.FIRST.order();
    }

    @Override
    public Publisher<MutableHttpResponse<?>> doFilter(HttpRequest<?> request, ServerFilterChain chain) {
        OptionalLong declared = declaredLength(request);
        boolean chunked = request.getHeaders().contains(HttpHeaders.TRANSFER_ENCODING);
        if (declared.isEmpty() && !chunked || declared.isPresent() && declared.getAsLong() == 0) {
            return chain.proceed(request);
        }
        String path = request.getPath();
        long limit = limits.limitFor(path);
        if (declared.isPresent() && declared.getAsLong() > limit) {
            return refuse(request, 413, "request body is too large: " + declared.getAsLong() + " bytes, the limit "
                    + "for this route is " + limit + " (setting " + BodyLimits.settingFor(path) + ")");
        }
        long reserve = declared.orElse(limit);
        if (!budget.tryReserve(reserve)) {
            MutableHttpResponse<?> busy = envelope(503, "the server is reading too many large request bodies at "
                    + "once; retry later");
            busy.header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
            LOG.info("request {}: {} {} answered 503: {} body bytes in flight, {} more refused",
                    RequestIdFilter.of(request), request.getMethod(), path, budget.inFlight(), reserve);
            return Mono.just(busy);
        }
        return Flux.from(chain.proceed(request)).doFinally(signal -> budget.release(reserve));
    }

    private static OptionalLong declaredLength(HttpRequest<?> request) {
        String value = request.getHeaders().get(HttpHeaders.CONTENT_LENGTH);
        if (value == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(value.strip()));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private static Publisher<MutableHttpResponse<?>> refuse(HttpRequest<?> request, int status, String message) {
        LOG.info("request {}: {} {} answered {}: {}", RequestIdFilter.of(request), request.getMethod(),
                request.getPath(), status, message);
        return Mono.just(envelope(status, message));
    }

    private static MutableHttpResponse<?> envelope(int status, String message) {
        return HttpResponse.status(io.micronaut.http.HttpStatus.valueOf(status)).body(ErrorEnvelope.of(status, message, null));
    }
}
