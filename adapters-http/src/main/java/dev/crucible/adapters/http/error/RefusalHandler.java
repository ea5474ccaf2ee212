package dev.crucible.adapters.http.error;

import dev.crucible.adapters.http.requestid.RequestIdFilter;
import dev.crucible.kernel.refusal.Excerpt;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a refusal in the envelope, with the status of its reason; a refusal that says when to try again (an
 * overload's 429) carries it as {@code Retry-After} in whole seconds, rounded up, which OpenAI's and vLLM's clients
 * honour.
 */
@Produces
@Singleton
@Requires(classes = {RefusalException.class, ExceptionHandler.class})
final class RefusalHandler implements ExceptionHandler<RefusalException, HttpResponse<ErrorEnvelope>> {

    private static final Logger LOG = LoggerFactory.getLogger(RefusalHandler.class);
    /** The most characters of a refusal's message its log line carries, escaped so it stays one line. */
    private static final int LOGGED_CHARS = 512;

    @Override
    public HttpResponse<ErrorEnvelope> handle(HttpRequest request, RefusalException e) {
        LOG.info("request {}: {} {} refused with {}: {}", RequestIdFilter.of(request), request.getMethod(),
                request.getPath(), ErrorStatus.of(e.refusal().reason()), Excerpt.line(e.refusal().message(), LOGGED_CHARS));
        return answer(e.refusal());
    }

    /** The envelope for {@code refusal}, with its reason's status and, when it says when to try again, Retry-After. */
    static MutableHttpResponse<ErrorEnvelope> answer(Refusal refusal) {
        int status = ErrorStatus.of(refusal.reason());
        MutableHttpResponse<ErrorEnvelope> response = HttpResponse.<ErrorEnvelope>status(HttpStatus.valueOf(status))
                .body(ErrorEnvelope.of(status, refusal.message(), refusal.param()));
        refusal.retryAfter().ifPresent(wait -> response.header(HttpHeaders.RETRY_AFTER,
                Long.toString(Math.max(1, (wait.toMillis() + 999) / 1000))));
        return response;
    }
}
