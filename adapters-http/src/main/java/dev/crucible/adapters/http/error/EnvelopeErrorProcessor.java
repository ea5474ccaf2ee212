package dev.crucible.adapters.http.error;

import dev.crucible.adapters.http.requestid.RequestIdFilter;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.netty.NettyHttpRequest;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes Micronaut's own errors (unknown route, wrong method or media type, oversized body, bad credentials) in the
 * one envelope; failures nothing else handles are {@link UnexpectedFailureHandler}'s. A 5xx never carries the
 * exception's text: it is logged with the request instead. Netty's decoder refuses a request line or headers over their limits as a frame too long, which
 * Micronaut answers 413; those become 414 (URI too long) and 431 (header fields too large).
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
                status = tooLong(context.getRequest());
                response.status(status);
                if (status != 413) {
                    // Netty cannot read anything more from this connection: say so, or a client that pools
                    // connections sends its next request into one that is being closed
                    response.header(HttpHeaders.CONNECTION, "close");
                }
                message = switch (status) {
                    case 414 -> "request URI is too long";
                    case 431 -> "request header fields are too large";
                    default -> "request body is too large";
                };
            }
            LOG.info("request {}: {} {} answered {}: {}", RequestIdFilter.of(context.getRequest()),
                    context.getRequest().getMethod(), context.getRequest().getPath(), status, message);
        }
        return response.body(ErrorEnvelope.of(status, message, null));
    }

    /** 414 or 431 when Netty could not decode the request line or headers for their length, else 413. */
    private static int tooLong(HttpRequest<?> request) {
        if (request instanceof NettyHttpRequest<?> netty && netty.getNativeRequest().decoderResult().isFailure()) {
            Throwable cause = netty.getNativeRequest().decoderResult().cause();
            if (cause instanceof TooLongHttpLineException) {
                return 414;
            }
            if (cause instanceof TooLongHttpHeaderException) {
                return 431;
            }
        }
        return 413;
    }
}
