package dev.crucible.adapters.http.body;

import dev.crucible.adapters.http.error.ErrorEnvelope;
import dev.crucible.adapters.http.requestid.RequestIdFilter;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Filter;
import io.micronaut.http.filter.HttpServerFilter;
import io.micronaut.http.filter.ServerFilterChain;
import io.micronaut.http.filter.ServerFilterPhase;
import java.util.OptionalLong;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Refuses a body whose declared length is over its route's limit with a 413 at once, before any of it is read. The
 * bytes a body may have in flight, the uploads a key may send at once and the read timeout are the
 * {@link BodyMeter}'s, which counts bodies by the bytes that arrive.
 */
@Filter(Filter.MATCH_ALL_PATTERN)
record BodyAdmissionFilter(BodyLimits limits) implements HttpServerFilter {

    private static final Logger LOG = LoggerFactory.getLogger(BodyAdmissionFilter.class);

    @Override
    public int getOrder() {
        return ServerFilterPhase.FIRST.order();
    }

    @Override
    public Publisher<MutableHttpResponse<?>> doFilter(HttpRequest<?> request, ServerFilterChain chain) {
        OptionalLong declared = declaredLength(request);
        String path = request.getPath();
        long limit = limits.limitFor(path);
        if (declared.isPresent() && declared.getAsLong() > limit) {
            String message = "request body is too large: " + declared.getAsLong() + " bytes, the limit for this route "
                    + "is " + limit + " (setting " + BodyLimits.settingFor(path) + ")";
            LOG.info("request {}: {} {} answered 413: {}", RequestIdFilter.of(request), request.getMethod(), path,
                    message);
            return Mono.just(HttpResponse.status(HttpStatus.REQUEST_ENTITY_TOO_LARGE)
                    .body(ErrorEnvelope.of(413, message, null)));
        }
        return chain.proceed(request);
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
}
