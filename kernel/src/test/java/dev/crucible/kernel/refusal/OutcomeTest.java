package dev.crucible.kernel.refusal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class OutcomeTest {

    private static final Refusal NOPE = Refusal.invalid("x", "x is wrong");

    @Test
    void doneHoldsItsValue() {
        assertEquals(new Outcome.Done<>("v"), Outcome.done("v"));
        assertEquals("v", Outcome.done("v").orElseThrow());
    }

    @Test
    void refusedHoldsItsRefusal() {
        assertEquals(new Outcome.Refused<>(NOPE), Outcome.refused(NOPE));
        assertEquals(Outcome.refused(NOPE), Outcome.refused(NOPE));
    }

    @Test
    void neitherSideAcceptsNull() {
        assertThrows(NullPointerException.class, () -> Outcome.done(null));
        assertThrows(NullPointerException.class, () -> Outcome.refused(null));
    }

    @Test
    void mapTransformsTheValue() {
        assertEquals(Outcome.done(3), Outcome.done("abc").map(String::length));
    }

    @Test
    void mapPassesARefusalThroughWithoutCallingTheMapper() {
        Outcome<Integer> mapped = Outcome.<String>refused(NOPE).map(s -> {
            throw new AssertionError("mapper called");
        });
        assertEquals(Outcome.refused(NOPE), mapped);
    }

    @Test
    void orElseThrowGivesTheValueOrThrowsTheRefusalsMessage() {
        assertEquals("v", Outcome.done("v").orElseThrow());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Outcome.refused(NOPE).orElseThrow());
        assertEquals("x is wrong", e.getMessage());
    }

    @Test
    void thenChainsToTheNextOutcome() {
        assertEquals(Outcome.done(4), Outcome.done(2).then(v -> Outcome.done(v * 2)));
        Refusal later = Refusal.conflict("y", "y taken");
        assertEquals(Outcome.refused(later), Outcome.done(2).then(v -> Outcome.refused(later)));
    }

    @Test
    void thenPassesARefusalThroughWithoutCallingNext() {
        Outcome<Integer> chained = Outcome.<Integer>refused(NOPE).then(v -> {
            throw new AssertionError("next called");
        });
        assertEquals(Outcome.refused(NOPE), chained);
    }
}
