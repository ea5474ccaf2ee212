package dev.crucible.adapters.http.error;

import io.micronaut.serde.annotation.Serdeable;

/** The one error body: {@code {"error": {"message", "type", "param", "code"}}}, OpenAI-style. */
@Serdeable
public record ErrorEnvelope(Detail error) {

    /** @param code the HTTP status, repeated in the body for clients that only see the body */
    @Serdeable
    public record Detail(String message, String type, String param, int code) {
    }

    /**
     * The most characters of a message. A refusal quotes what the caller sent only as a short excerpt
     * ({@code Excerpt}); this bounds a message that quotes more, whatever made it.
     */
    static final int MAX_MESSAGE_CHARS = 4096;

    public static ErrorEnvelope of(int status, String message, String param) {
        return new ErrorEnvelope(new Detail(bounded(message), ErrorStatus.typeOf(status), param, status));
    }

    static String bounded(String message) {
        if (message == null || message.length() <= MAX_MESSAGE_CHARS) {
            return message;
        }
        int end = Character.isHighSurrogate(message.charAt(MAX_MESSAGE_CHARS - 1)) ? MAX_MESSAGE_CHARS - 1
                : MAX_MESSAGE_CHARS;
        return message.substring(0, end) + "… (" + message.length() + " characters)";
    }
}
