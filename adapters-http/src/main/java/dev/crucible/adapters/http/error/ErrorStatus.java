package dev.crucible.adapters.http.error;

import dev.crucible.kernel.refusal.Refusal;

/** The one mapping from refusal reason to HTTP status, and from status to the envelope's {@code type}. */
public final class ErrorStatus {

    private ErrorStatus() {
    }

    public static int of(Refusal.Reason reason) {
        return switch (reason) {
            case INVALID -> 400;
            case UNAUTHENTICATED -> 401;
            case FORBIDDEN -> 403;
            case NOT_FOUND -> 404;
            case CONFLICT -> 409;
            case UNPROCESSABLE -> 422;
            case TOO_LARGE -> 413;
            case OVERLOADED -> 429;
            case NOT_READY -> 503;
            case NOT_IMPLEMENTED -> 501;
            case INSUFFICIENT_STORAGE -> 507;
        };
    }

    /** The envelope's {@code type} for {@code status}. */
    static String typeOf(int status) {
        return switch (status) {
            case 400, 405, 415, 422 -> "invalid_request_error";
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 409 -> "conflict_error";
            case 413, 414, 431 -> "request_too_large";
            case 429 -> "rate_limit_error";
            case 501 -> "not_implemented_error";
            case 503 -> "service_unavailable";
            case 507 -> "insufficient_storage";
            default -> status >= 500 ? "internal_error" : "invalid_request_error";
        };
    }
}
