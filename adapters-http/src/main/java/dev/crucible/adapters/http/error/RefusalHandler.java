package dev.crucible.adapters.http.error;

import dev.crucible.adapters.http.request.RequestIdFilter;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Answers a refusal in the envelope, with the status of its reason. */
@Produces
@Singleton
@Requires(classes = {RefusalException.class, ExceptionHandler.class})
final class RefusalHandler implements ExceptionHandler<RefusalException, HttpResponse<ErrorEnvelope>> {

    private static final Logger LOG = LoggerFactory.getLogger(RefusalHandler.class);

    @Override
    public HttpResponse<ErrorEnvelope> handle(HttpRequest request, RefusalException e) {
        int status = ErrorStatus.of(e.refusal().reason());
        LOG.info("request {}: {} {} refused with {}: {}", RequestIdFilter.of(request), request.getMethod(),
                request.getPath(), status, e.refusal().message());
        return HttpResponse.<ErrorEnvelope>status(io.micronaut.http.HttpStatus.valueOf(status))
                .body(ErrorEnvelope.of(status, e.refusal().message(), e.refusal().param()));
    }
}
