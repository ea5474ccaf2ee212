package dev.crucible.kernel.refusal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RefusalTest {

    @Test
    void factoriesSetTheirReason() {
        assertEquals(new Refusal(Refusal.Reason.INVALID, "m", "p"), Refusal.invalid("p", "m"));
        assertEquals(new Refusal(Refusal.Reason.NOT_FOUND, "m", "p"), Refusal.notFound("p", "m"));
        assertEquals(new Refusal(Refusal.Reason.CONFLICT, "m", "p"), Refusal.conflict("p", "m"));
    }

    @Test
    void onlyAnOverloadCarriesARetryHint() {
        assertEquals(java.util.Optional.empty(), Refusal.invalid("p", "m").retryAfter());
        Refusal overloaded = Refusal.overloaded("busy", java.time.Duration.ofSeconds(3));
        assertEquals(Refusal.Reason.OVERLOADED, overloaded.reason());
        assertEquals(java.util.Optional.of(java.time.Duration.ofSeconds(3)), overloaded.retryAfter());
    }

    @Test
    void paramMayBeNull() {
        assertNull(Refusal.invalid(null, "m").param());
    }

    @Test
    void reasonAndMessageAreRequired() {
        assertThrows(NullPointerException.class, () -> new Refusal(null, "m", "p"));
        assertThrows(NullPointerException.class, () -> new Refusal(Refusal.Reason.INVALID, null, "p"));
    }
}
