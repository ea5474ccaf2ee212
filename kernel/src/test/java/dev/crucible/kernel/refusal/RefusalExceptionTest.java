package dev.crucible.kernel.refusal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RefusalExceptionTest {

    @Test
    void unwrapGivesTheValueOrThrowsTheRefusal() {
        assertEquals("v", RefusalException.unwrap(Outcome.done("v")));
        Refusal nope = Refusal.invalid("x", "x is wrong");
        assertSame(nope, assertThrows(RefusalException.class, () -> RefusalException.unwrap(Outcome.refused(nope)))
                .refusal());
    }

    @Test
    void invalidCarriesTheParamAndMessage() {
        assertEquals(Refusal.invalid("p", "m"), RefusalException.invalid("p", "m").refusal());
    }
}
