package dev.crucible.runtime.generation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Scale;
import org.junit.jupiter.api.Test;

/**
 * The pacer's arithmetic with made-up timings of a model whose prefill run costs a fixed part (its weights read once)
 * plus a part per prompt token: the budget settles where a step that also prefills takes at most the stall factor
 * times a step that only decodes.
 */
class PrefillPacerTest {

    private static final long MS = 1_000_000;

    /** The steps' times once the pacer has settled on a model: decode {@code decode}, prefill {@code fixed + perToken * k}. */
    private static int settle(PrefillPacer pacer, long decode, long fixed, long perToken) {
        pacer.forwarded(4, 0, decode);
        int tokens = pacer.tokens();
        for (int i = 0; i < 80; i++) {
            tokens = pacer.tokens();
            pacer.forwarded(4, tokens, decode + fixed + perToken * tokens);
            pacer.forwarded(4, 0, decode);
        }
        return pacer.tokens();
    }

    @Test
    void aFixedBudgetIsWhatItSays() {
        PrefillPacer pacer = new PrefillPacer(PrefillBudget.fixed(7), 512);
        pacer.forwarded(4, 0, 80 * MS);
        pacer.forwarded(4, 7, 900 * MS);
        assertEquals(7, pacer.tokens());
    }

    @Test
    void pacedItStartsSmallAndSettlesWithinTheFactor() {
        PrefillPacer pacer = new PrefillPacer(PrefillBudget.paced(3), 512);
        assertEquals(PrefillPacer.FIRST_TOKENS, pacer.tokens());
        // 85 ms a decode step, 60 ms + 6 ms a token a prefill run (this machine's 0.5B model, roughly)
        int tokens = settle(pacer, 85 * MS, 60 * MS, 6 * MS);
        long step = 85 * MS + 60 * MS + 6 * MS * tokens;
        assertTrue(step <= 3 * 85 * MS, tokens + " tokens make a step of " + step / MS + " ms");
        assertTrue(step >= 2 * 85 * MS, tokens + " tokens waste the allowance: " + step / MS + " ms");
    }

    @Test
    void theBudgetNeverPassesTheChunk() {
        PrefillPacer pacer = new PrefillPacer(PrefillBudget.paced(3), 16);
        assertEquals(16, settle(pacer, 100 * MS, 0, MS / 100));
    }

    @Test
    void budgetsAreEitherFixedOrPaced() {
        assertThrows(IllegalArgumentException.class, () -> new PrefillBudget(0, 0));
        assertThrows(IllegalArgumentException.class, () -> new PrefillBudget(4, 3));
        assertThrows(IllegalArgumentException.class, () -> PrefillBudget.paced(1));
        assertThrows(IllegalArgumentException.class, () -> PrefillBudget.paced(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> PrefillBudget.fixed(-1));
    }

    @Property
    void aSettledStepStaysWithinTheFactorWheneverOneTokenDoes(@ForAll @IntRange(min = 1, max = 2000) int decodeMs,
            @ForAll @DoubleRange(min = 0, max = 0.5) double fixedShare,
            @ForAll @DoubleRange(min = 0.0001, max = 2) @Scale(4) double tokenShare,
            @ForAll @DoubleRange(min = 1.5, max = 8) double factor) {
        long decode = decodeMs * MS;
        long fixed = (long) (fixedShare * (factor - 1) * decode);
        long perToken = Math.max(1, (long) (tokenShare * decode));
        int tokens = settle(new PrefillPacer(PrefillBudget.paced(factor), 512), decode, fixed, perToken);
        long step = decode + fixed + perToken * tokens;
        assertTrue(tokens >= 1 && tokens <= 512);
        assertTrue(tokens == 1 || step <= factor * decode, tokens + " tokens make a step of " + step
                + " ns against a decode step of " + decode);
    }
}
