package dev.crucible.testsupport.outcome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;

/** Opens an {@link Outcome}, failing the test when it is the other kind. */
public final class OutcomeAssertions {

    private OutcomeAssertions() {
    }

    @SuppressWarnings("unchecked")
    public static <T> T value(Outcome<T> outcome) {
        return ((Outcome.Done<T>) assertInstanceOf(Outcome.Done.class, outcome,
                () -> "expected a value, got " + outcome)).value();
    }

    public static Refusal refusal(Outcome<?> outcome) {
        return assertInstanceOf(Outcome.Refused.class, outcome, () -> "expected a refusal, got " + outcome).refusal();
    }

    /** Asserts a refusal for {@code reason} on {@code param}; returns its message. */
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
