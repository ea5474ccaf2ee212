package dev.crucible.domain.refusal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** Test helpers that open an {@link Outcome}, failing the test when it is the other kind. */
public final class Outcomes {

    private Outcomes() {
    }

    /** The value of a successful outcome. */
    @SuppressWarnings("unchecked")
    public static <T> T value(Outcome<T> outcome) {
        return ((Outcome.Done<T>) assertInstanceOf(Outcome.Done.class, outcome,
                () -> "expected a value, got " + outcome)).value();
    }

    /** The refusal of a refused outcome. */
    public static Refusal refusal(Outcome<?> outcome) {
        return assertInstanceOf(Outcome.Refused.class, outcome, () -> "expected a refusal, got " + outcome).refusal();
    }

    /** Asserts that {@code outcome} was refused for {@code reason} on {@code param}, returning the message. */
    public static String assertRefused(Outcome<?> outcome, Refusal.Reason reason, String param) {
        Refusal refusal = refusal(outcome);
        assertEquals(reason, refusal.reason(), () -> "reason of " + refusal);
        assertEquals(param, refusal.param(), () -> "param of " + refusal);
        return refusal.message();
    }

    /** Asserts an INVALID refusal on {@code param} with exactly {@code message}. */
    public static void assertInvalid(Outcome<?> outcome, String param, String message) {
        assertEquals(message, assertRefused(outcome, Refusal.Reason.INVALID, param));
    }
}
