package dev.crucible.adapters.http.error;

import dev.crucible.adapters.http.requestid.RequestIdFilter;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;
import java.io.EOFException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a failure no other handler knows: broken infrastructure the client can wait out or should be told about
 * ({@link InfrastructureFailures}: the database out of reach is a 503 with {@code Retry-After}, a full disk a 507) as
 * that refusal, anything else (a bug) with a bare 500 in the envelope; each is logged once, with its request id and
 * cause. Micronaut picks the handler of the closest exception type, so its own
 * handlers (bad arguments, authentication, oversized bodies) and {@link RefusalHandler} still answer theirs; without
 * this one, Micronaut's route executor logged each failure and {@link EnvelopeErrorProcessor} logged it again.
 */
@Produces
@Singleton
@Requires(classes = ExceptionHandler.class)
final class UnexpectedFailureHandler implements ExceptionHandler<Throwable, HttpResponse<ErrorEnvelope>> {

    private static final Logger LOG = LoggerFactory.getLogger(UnexpectedFailureHandler.class);

    @Override
    public HttpResponse<ErrorEnvelope> handle(HttpRequest request, Throwable failure) {
        var infrastructure = InfrastructureFailures.refusal(failure);
        if (infrastructure.isPresent()) {
            LOG.warn("request {}: {} {} answered {}: {}", RequestIdFilter.of(request), request.getMethod(),
                    request.getPath(), ErrorStatus.of(infrastructure.get().reason()), rootMessage(failure));
            return RefusalHandler.answer(infrastructure.get());
        }
        if (bodyEndedEarly(failure)) {
            // The client closed the connection mid-body (or the server closed a stalled one): no bug, nobody to answer.
            LOG.info("request {}: {} {}: the connection closed before the body was received", RequestIdFilter.of(request),
                    request.getMethod(), request.getPath());
            return HttpResponse.badRequest(ErrorEnvelope.of(400, "the request body ended before its declared end", null));
        }
        LOG.error("request {}: {} {} failed with 500", RequestIdFilter.of(request), request.getMethod(),
                request.getPath(), failure);
        return HttpResponse.serverError(ErrorEnvelope.of(500, "internal server error", null));
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = InfrastructureFailures.causes(failure).getLast();
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    private static boolean bodyEndedEarly(Throwable failure) {
        return InfrastructureFailures.causes(failure).stream().anyMatch(EOFException.class::isInstance);
    }
}
