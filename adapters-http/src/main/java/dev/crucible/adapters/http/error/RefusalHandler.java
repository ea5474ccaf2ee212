package dev.crucible.adapters.http.error;

import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;

/** Answers a refusal in the envelope, with the status of its reason. */
@Produces
@Singleton
@Requires(classes = {RefusalException.class, ExceptionHandler.class})
final class RefusalHandler implements ExceptionHandler<RefusalException, HttpResponse<ErrorEnvelope>> {

    @Override
    public HttpResponse<ErrorEnvelope> handle(HttpRequest request, RefusalException e) {
        int status = ErrorStatus.of(e.refusal().reason());
        return HttpResponse.<ErrorEnvelope>status(io.micronaut.http.HttpStatus.valueOf(status))
                .body(ErrorEnvelope.of(status, e.refusal().message(), e.refusal().param()));
    }
}
