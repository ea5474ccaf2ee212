package dev.crucible.adapters.http.error;

import dev.crucible.adapters.http.request.RequestIdFilter;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes Micronaut's own errors (unknown route, wrong method or media type, oversized body, bad credentials,
 * unhandled exceptions) in the one envelope. A 5xx never carries the exception's text: it is logged with the
 * request instead.
 */
@Singleton
final class EnvelopeErrorProcessor implements ErrorResponseProcessor<ErrorEnvelope> {

    private static final Logger LOG = LoggerFactory.getLogger(EnvelopeErrorProcessor.class);

    @Override
    public MutableHttpResponse<ErrorEnvelope> processResponse(ErrorContext context, MutableHttpResponse<?> response) {
        int status = response.code();
        String message;
        if (status >= 500) {
            LOG.error("request {}: {} {} failed with {}", RequestIdFilter.of(context.getRequest()),
                    context.getRequest().getMethod(), context.getRequest().getPath(), status,
                    context.getRootCause().orElse(null));
            message = status == 503 ? "service unavailable" : "internal server error";
        } else {
            message = context.getErrors().isEmpty() ? response.reason()
                    : context.getErrors().getFirst().getMessage();
            if (status == 413) {
                message = "request body is too large";
            }
            LOG.info("request {}: {} {} answered {}: {}", RequestIdFilter.of(context.getRequest()),
                    context.getRequest().getMethod(), context.getRequest().getPath(), status, message);
        }
        return response.body(ErrorEnvelope.of(status, message, null));
    }
}
