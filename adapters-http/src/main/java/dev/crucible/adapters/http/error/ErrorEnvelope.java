package dev.crucible.adapters.http.error;

import io.micronaut.serde.annotation.Serdeable;

/** The one error body: {@code {"error": {"message", "type", "param", "code"}}}, OpenAI-style. */
@Serdeable
public record ErrorEnvelope(Detail error) {

    /** @param code the HTTP status, repeated in the body for clients that only see the body */
    @Serdeable
    public record Detail(String message, String type, String param, int code) {
    }

    public static ErrorEnvelope of(int status, String message, String param) {
        return new ErrorEnvelope(new Detail(message, ErrorStatus.typeOf(status), param, status));
    }
}
