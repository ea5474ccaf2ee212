package dev.crucible.kernel.refusal;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A refusal the caller caused, as a value: why (a typed reason), what to tell them, and which request
 * field was at fault ({@code param}, null when no single field is).
 *
 * @param retryAfter when trying again may succeed (an overloaded server's hint, HTTP's {@code Retry-After});
 *                   empty when waiting would not help
 */
public record Refusal(Reason reason, String message, String param, Optional<Duration> retryAfter) {

    /**
     * Why a request was refused; the HTTP adapter maps each reason to one status. {@code UNPROCESSABLE}: well formed,
     * but at odds with what the same request said before (an idempotency key reused for another request).
     * {@code FORBIDDEN}: the caller asked, by name, for something of another entity (a {@code Compat-Project} of
     * another team); where naming it reveals nothing, which otherwise answers as {@code NOT_FOUND}.
     * {@code NOT_READY}: a part the request needs (the database) is unavailable for now; trying again later may work.
     * {@code INSUFFICIENT_STORAGE}: the server's storage is full, so the write was not made.
     */
    public enum Reason {
        INVALID, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, CONFLICT, UNPROCESSABLE, TOO_LARGE, OVERLOADED, NOT_READY,
        NOT_IMPLEMENTED, INSUFFICIENT_STORAGE
    }

    public Refusal {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(retryAfter, "retryAfter");
    }

    /** A refusal with no retry hint. */
    public Refusal(Reason reason, String message, String param) {
        this(reason, message, param, Optional.empty());
    }

    /** Too much work at once: the caller may try again after {@code retryAfter}. */
    public static Refusal overloaded(String message, Duration retryAfter) {
        return new Refusal(Reason.OVERLOADED, message, null, Optional.of(retryAfter));
    }

    public static Refusal invalid(String param, String message) {
        return new Refusal(Reason.INVALID, message, param);
    }

    public static Refusal notFound(String param, String message) {
        return new Refusal(Reason.NOT_FOUND, message, param);
    }

    public static Refusal conflict(String param, String message) {
        return new Refusal(Reason.CONFLICT, message, param);
    }
}
