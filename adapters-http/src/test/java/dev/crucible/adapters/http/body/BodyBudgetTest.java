package dev.crucible.adapters.http.body;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.http.body.BodyBudget.Admission;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BodyBudgetTest {

    private final BodyBudget budget = new BodyBudget(new BodyLimits(4000, 500, 1000, 600, 2, Duration.ofSeconds(30)));

    @Test
    void aRequestHoldingEveryByteInFlightMayAlwaysGoOn() {
        assertEquals(Admission.ADMITTED, budget.tryReserve("a", 900, 0));
        assertEquals(Admission.ADMITTED, budget.tryReserve("a", 2000, 900), "alone, past both bounds");
        assertEquals(2900, budget.inFlight());
    }

    @Test
    void theServersBoundRefusesWhenOthersHoldBytes() {
        budget.tryReserve("a", 500, 0);
        assertEquals(Admission.SERVER_FULL, budget.tryReserve("b", 501, 0));
        assertEquals(Admission.ADMITTED, budget.tryReserve("b", 500, 0));
        assertEquals(Admission.SERVER_FULL, budget.wouldAdmit("c", 1));
        budget.release("a", 500);
        assertEquals(Admission.ADMITTED, budget.wouldAdmit("c", 1));
        assertEquals(500, budget.inFlight());
    }

    @Test
    void aKeysBoundRefusesThatKeyOnly() {
        budget.tryReserve("a", 400, 0);
        assertEquals(Admission.KEY_FULL, budget.tryReserve("a", 201, 0));
        assertEquals(Admission.ADMITTED, budget.tryReserve("b", 500, 0));
        assertEquals(400, budget.inFlight("a"));
        budget.release("a", 400);
        assertEquals(0, budget.inFlight("a"));
        assertEquals(Admission.ADMITTED, budget.tryReserve("a", 201, 0));
    }

    @Test
    void aKeyOpensAtMostItsUploads() {
        assertTrue(budget.tryOpenUpload("a"));
        assertTrue(budget.tryOpenUpload("a"));
        assertFalse(budget.tryOpenUpload("a"));
        assertTrue(budget.tryOpenUpload("b"));
        budget.closeUpload("a");
        assertTrue(budget.tryOpenUpload("a"));
        assertEquals(2, budget.uploads("a"));
    }
}
