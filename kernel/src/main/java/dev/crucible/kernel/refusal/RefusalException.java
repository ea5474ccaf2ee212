package dev.crucible.kernel.refusal;

/**
 * Carries a {@link Refusal} out of a read or a controller: the domain's readers catch it into an {@link Outcome}, and
 * at the HTTP edge one handler answers it in the one envelope. The one exception type for a refusal the caller
 * caused; not a failure: no stack trace is captured.
 */
public final class RefusalException extends RuntimeException {

    private final transient Refusal refusal;

    public RefusalException(Refusal refusal) {
        super(refusal.message(), null, false, false);
        this.refusal = refusal;
    }

    public static RefusalException invalid(String param, String message) {
        return new RefusalException(Refusal.invalid(param, message));
    }

    public Refusal refusal() {
        return refusal;
    }

    /** The value of a successful outcome; a refusal is thrown for the handler to answer. */
    public static <T> T unwrap(Outcome<T> outcome) {
        return switch (outcome) {
            case Outcome.Done<T> done -> done.value();
            case Outcome.Refused<T> refused -> throw new RefusalException(refused.refusal());
        };
    }
}
