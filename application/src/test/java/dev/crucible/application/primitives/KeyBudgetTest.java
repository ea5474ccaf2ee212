package dev.crucible.application.primitives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class KeyBudgetTest {

    private final UUID one = UUID.randomUUID();
    private final UUID other = UUID.randomUUID();

    @Test
    void aKeyHoldsAtMostItsBoundAndOthersAreNotAffected() {
        KeyBudget budget = new KeyBudget(2);

        assertTrue(budget.tryTake(one));
        assertTrue(budget.tryTake(one));
        assertFalse(budget.tryTake(one), "a third place is refused");
        assertEquals(2, budget.held(one), "a refusal takes nothing");
        assertTrue(budget.tryTake(other), "another key has a bound of its own");

        budget.give(one);
        assertTrue(budget.tryTake(one), "a place given back can be taken again");
    }

    @Test
    void givingBackMoreThanWasTakenNeverGoesBelowZero() {
        KeyBudget budget = new KeyBudget(1);
        budget.give(one);

        assertEquals(0, budget.held(one));
        assertTrue(budget.tryTake(one));
        assertFalse(budget.tryTake(one));
    }

    @Test
    void concurrentTakersNeverHoldMoreThanTheBound() throws Exception {
        KeyBudget budget = new KeyBudget(3);
        AtomicInteger taken = new AtomicInteger();
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (int i = 0; i < 200; i++) {
                pool.execute(() -> {
                    if (budget.tryTake(one)) {
                        taken.incrementAndGet();
                    }
                });
            }
        }
        assertEquals(3, taken.get());
        assertEquals(3, budget.held(one));
    }

    @Test
    void theBoundIsAtLeastOne() {
        assertThrows(IllegalArgumentException.class, () -> new KeyBudget(0));
    }
}
