package dev.crucible.domain.common;

import java.util.Objects;

/**
 * A refusal the caller caused, as a value: why (a typed reason), what to tell them, and which request
 * field was at fault ({@code param}, null when no single field is).
 */
public record Refusal(Reason reason, String message, String param) {

    /** Why a request was refused; the HTTP adapter maps each reason to one status. */
    public enum Reason { INVALID, UNAUTHENTICATED, NOT_FOUND, CONFLICT, TOO_LARGE, OVERLOADED, NOT_READY, NOT_IMPLEMENTED }

    public Refusal {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
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
