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
        return settle(pacer, 4, decode, fixed, perToken);
    }

    /** As {@link #settle(PrefillPacer, long, long, long)}, beside {@code streams} decoding sequences. */
    private static int settle(PrefillPacer pacer, int streams, long decode, long fixed, long perToken) {
        pacer.forwarded(streams, 0, decode);
        for (int i = 0; i < 80; i++) {
            int tokens = pacer.tokens(streams);
            pacer.forwarded(streams, tokens, decode + fixed + perToken * tokens);
        }
        return pacer.tokens(streams);
    }

    @Test
    void aFixedBudgetIsWhatItSays() {
        PrefillPacer pacer = new PrefillPacer(PrefillBudget.fixed(7), 512);
        pacer.forwarded(4, 0, 80 * MS);
        pacer.forwarded(4, 7, 900 * MS);
        assertEquals(7, pacer.tokens(4));
    }

    @Test
    void pacedItStartsSmallAndSettlesWithinTheFactor() {
        PrefillPacer pacer = new PrefillPacer(PrefillBudget.paced(3), 512);
        assertEquals(0, pacer.tokens(4), "no decode step timed yet: the prompts sit one out");
        pacer.forwarded(4, 0, 85 * MS);
        assertEquals(PrefillPacer.FIRST_TOKENS, pacer.tokens(4));
        // 85 ms a decode step, 60 ms + 6 ms a token a prefill run (this machine's 0.5B model, roughly)
        int tokens = settle(pacer, 85 * MS, 60 * MS, 6 * MS);
        long step = 85 * MS + 60 * MS + 6 * MS * tokens;
        assertTrue(step <= 3 * 85 * MS, tokens + " tokens make a step of " + step / MS + " ms");
        assertTrue(step >= 2 * 85 * MS, tokens + " tokens waste the allowance: " + step / MS + " ms");
    }

    @Test
    void itStartsAtOneTokenAndAtMostDoublesTheLastMixedStep() {
        PrefillPacer pacer = new PrefillPacer(PrefillBudget.paced(3), 512);
        pacer.forwarded(4, 0, 100 * MS);
        // tokens nearly free: the timings alone would allow the whole chunk at once
        int last = pacer.tokens(4);
        assertEquals(1, last);
        for (int step = 0; step < 12; step++) {
            pacer.forwarded(4, last, 100 * MS + last);
            int next = pacer.tokens(4);
            assertEquals(Math.min(512, 2 * last), next);
            last = next;
        }
    }

    @Test
    void itClimbsFromOneTokenWhenThePrefillRunsFixedCostTakesMostOfTheAllowance() {
        // allowance 2 * 100 * 0.8 = 160 ms; a prefill run 100 ms + 1 ms a token: one token costs 101 ms, more than
        // half of it, which rounding down would never leave; 60 tokens fit
        PrefillPacer pacer = new PrefillPacer(PrefillBudget.paced(3), 512);
        int tokens = settle(pacer, 100 * MS, 100 * MS, MS);
        assertTrue(tokens >= 50 && 100 * MS + MS * tokens <= 160 * MS + MS, tokens + " tokens");
    }

    @Test
    void aCheaperFigureFromAnotherPromptIsTriedInDoublings() {
        PrefillPacer pacer = new PrefillPacer(PrefillBudget.paced(3), 512);
        settle(pacer, 100 * MS, 0, MS / 10);
        assertEquals(512, pacer.tokens(4));
        // a new prompt's tokens cost 40 times more: one step overshoots, the next learns
        pacer.forwarded(4, 8, 100 * MS + 8 * 4 * MS);
        int next = pacer.tokens(4);
        assertTrue(next <= 16, next + " tokens");
    }

    @Test
    void fewerStreamsThanADecodeStepWasTimedWithAreTimedAgainFirst() {
        PrefillPacer pacer = new PrefillPacer(PrefillBudget.paced(3), 512);
        int eight = settle(pacer, 8, 160 * MS, 0, MS);
        assertEquals(0, pacer.tokens(7), "a step of 7 streams is shorter than one of 8 was");
        pacer.forwarded(7, 0, 80 * MS);
        int seven = pacer.tokens(7);
        assertTrue(seven > 0 && seven < eight, seven + " tokens beside 7 streams, " + eight + " beside 8");
        assertTrue(pacer.tokens(9) > 0, "more streams take longer: the figure understates their allowance");
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
    void aSettledStepStaysWithinTheFactorWheneverOneTokenFitsTheMargin(@ForAll @IntRange(min = 1, max = 2000) int decodeMs,
            @ForAll @DoubleRange(min = 0, max = 0.5) double fixedShare,
            @ForAll @DoubleRange(min = 0.0001, max = 2) @Scale(4) double tokenShare,
            @ForAll @DoubleRange(min = 1.5, max = 8) double factor) {
        long decode = decodeMs * MS;
        long fixed = (long) (fixedShare * (factor - 1) * decode);
        long perToken = Math.max(1, (long) (tokenShare * decode));
        int tokens = settle(new PrefillPacer(PrefillBudget.paced(factor), 512), decode, fixed, perToken);
        long step = decode + fixed + perToken * tokens;
        assertTrue(tokens >= 1 && tokens <= 512);
        // rounding up passes the settled allowance by less than one token, which the margin covers whenever a token
        // costs at most its share of the allowance; a token dearer than that still never passes the allowance by more
        assertTrue(tokens == 1 || step <= decode + PrefillPacer.MARGIN * (factor - 1) * decode + perToken,
                tokens + " tokens make a step of " + step + " ns against a decode step of " + decode);
        assertTrue(tokens == 1 || perToken > (1 - PrefillPacer.MARGIN) * (factor - 1) * decode
                || step <= factor * decode, tokens + " tokens make a step of " + step + " ns against " + decode);
    }
}
