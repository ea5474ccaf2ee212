package dev.crucible.runtime.generation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Scale;
import org.junit.jupiter.api.Test;

/**
 * The pacer's arithmetic with made-up timings of a model whose prefill run costs a fixed part (its weights read once),
 * a part per prompt token and a part per token and position (attention over the prefix already cached): a long
 * prompt is prefilled in pieces, each piece's step within the stall factor times a step that only decodes. No clock:
 * the step times are computed from the made-up model and handed to the pacer.
 */
class PrefillPacerTest {

    private static final long MS = 1_000_000;

    /** The extra time of a piece of {@code k} tokens at position {@code p}: {@code fixed + k * token + k * m * position}. */
    private record Cost(double fixed, double token, double position) {

        double of(int k, int p) {
            return fixed + k * token + k * (p + (k - 1) / 2.0) * position;
        }
    }

    /** One paced step that prefilled: its piece and the whole step's time. */
    private record Step(int tokens, int position, double nanos) {
    }

    /**
     * Prefills a {@code length}-token prompt from position 0 beside {@code streams} decoding sequences whose
     * decode-only step takes {@code decode}, handing the pacer each step's time; answers the steps that prefilled.
     */
    private static List<Step> prefill(PrefillPacer pacer, int streams, long decode, Cost cost, int length) {
        return prefill(pacer, streams, decode, cost, 0, length);
    }

    private static List<Step> prefill(PrefillPacer pacer, int streams, long decode, Cost cost, int from, int to) {
        pacer.forwarded(streams, 0, 0, decode);
        List<Step> steps = new ArrayList<>();
        for (int position = from; position < to; ) {
            int tokens = Math.min(to - position, pacer.tokens(streams, position));
            assertTrue(tokens >= 1, "a prompt always moves on");
            double nanos = decode + cost.of(tokens, position);
            pacer.forwarded(streams, tokens, position, (long) nanos);
            steps.add(new Step(tokens, position, nanos));
            position += tokens;
        }
        return steps;
    }

    @Test
    void aFixedBudgetIsWhatItSays() {
        PrefillPacer pacer = new PrefillPacer(PrefillBudget.fixed(7), 512);
        pacer.forwarded(4, 0, 0, 80 * MS);
        pacer.forwarded(4, 7, 0, 900 * MS);
        assertEquals(7, pacer.tokens(4, 7));
        assertTrue(pacer.severalPieces(), "a fixed budget is shared by the prefilling sequences");
        assertFalse(new PrefillPacer(PrefillBudget.paced(3), 512).severalPieces(), "paced: one prefill run a step");
    }

    @Test
    void pacedItWaitsForADecodeStepThenStartsAtOneTokenAndAtMostDoubles() {
        PrefillPacer pacer = new PrefillPacer(PrefillBudget.paced(3), 512);
        assertEquals(0, pacer.tokens(4, 0), "no decode step timed yet: the prompts sit one out");
        pacer.forwarded(4, 0, 0, 100 * MS);
        assertEquals(PrefillPacer.FIRST_TOKENS, pacer.tokens(4, 0));
        // tokens nearly free: the timings alone would allow the whole chunk at once
        List<Step> steps = prefill(pacer, 4, 100 * MS, new Cost(0, 1000, 0), 1023);
        assertEquals(List.of(1, 2, 4, 8, 16, 32, 64, 128, 256, 512), steps.stream().map(Step::tokens).toList());
    }

    @Test
    void aPromptWhosePiecesCostMoreFurtherInStaysWithinTheFactor() {
        // bench/serve's stall round on the 0.5B model, roughly: 72 ms a decode step of 4 streams, a piece in the same
        // run 6 ms + 2.2 ms a token + 1 us a token per position of the prefix (a 30-token piece at 2,000 adds 132 ms);
        // a per-token figure without the position (the pacer before) reached about 4x by the prompt's end
        long decode = 72 * MS;
        Cost cost = new Cost(6 * MS, 2.2 * MS, 0.001 * MS);
        List<Step> steps = prefill(new PrefillPacer(PrefillBudget.paced(3), 512), 4, decode, cost, 1988);
        for (Step step : steps) {
            assertTrue(step.nanos() <= 3 * decode, step + " passes 3 decode steps");
        }
        // and it uses the margin's allowance: past the ramp, the steps average at least 90 % of it
        double mean = steps.subList(10, steps.size()).stream().mapToDouble(Step::nanos).average().orElseThrow();
        assertTrue(mean >= (1 + 0.9 * PrefillPacer.MARGIN * 2) * decode, "steps average " + mean / decode
                + " decode steps");
        // the pieces shrink as the prefix grows
        assertTrue(steps.getLast().tokens() < steps.get(steps.size() / 2).tokens(), steps.toString());
    }

    /** The two tests below: a decode step of 100 ms, and a piece costing 5 ms + 2 ms a token in the same run. */
    private static final long STEADY_DECODE = 100 * MS;
    private static final Cost STEADY_COST = new Cost(5 * MS, 2 * MS, 0);

    /** A paced pacer after a prompt prefilled to position {@code 300} and three steady pieces beyond it. */
    private record Steady(PrefillPacer pacer, int position) {

        static Steady reached() {
            PrefillPacer pacer = new PrefillPacer(PrefillBudget.paced(3), 512);
            prefill(pacer, 4, STEADY_DECODE, STEADY_COST, 300);
            int position = 300;
            for (int i = 0; i < 3; i++) {
                int tokens = pacer.tokens(4, position);
                pacer.forwarded(4, tokens, position, (long) (STEADY_DECODE + STEADY_COST.of(tokens, position)));
                position += tokens;
            }
            return new Steady(pacer, position);
        }
    }

    @Test
    void oneSlowStepDoesNotShrinkThePiecesAfterIt() {
        long decode = STEADY_DECODE;
        Cost cost = STEADY_COST;
        Steady steady = Steady.reached();
        PrefillPacer pacer = steady.pacer();
        int position = steady.position();
        int tokens = pacer.tokens(4, position);
        // the machine takes a decode step's time more for this one step
        pacer.forwarded(4, tokens, position, (long) (decode + cost.of(tokens, position) + decode));
        int next = pacer.tokens(4, position + tokens);
        assertTrue(next >= 0.85 * tokens, next + " tokens after a slow step's " + tokens);
        assertTrue(decode + cost.of(next, position + tokens) + decode <= 3 * decode,
                "the next piece stays within the factor even if it is slow too");
    }

    @Test
    void aSlowerMachineShrinksThePiecesWithinAFewSteps() {
        long decode = STEADY_DECODE;
        Steady steady = Steady.reached();
        PrefillPacer pacer = steady.pacer();
        int position = steady.position();
        int first = pacer.tokens(4, position);
        // from now on every piece takes twice what it did: the steps stay within the factor meanwhile
        Cost slower = new Cost(10 * MS, 4 * MS, 0);
        int tokens = first;
        for (int i = 0; i < 8; i++) {
            double nanos = decode + slower.of(tokens, position);
            assertTrue(nanos <= 3 * decode, "step " + i + ": " + nanos / decode + " decode steps");
            pacer.forwarded(4, tokens, position, (long) nanos);
            position += tokens;
            tokens = pacer.tokens(4, position);
        }
        assertTrue(slower.of(tokens, position) <= pacer.allowedNanos() * 1.05, tokens + " tokens of " + first
                + " fit the slower machine's allowance again");
    }

    @Test
    void theModelIsFittedFromThePiecesTimed() {
        PrefillPacer.PieceCost cost = new PrefillPacer.PieceCost();
        Cost truth = new Cost(80 * MS, 1.5 * MS, 0.002 * MS);
        int[][] pieces = {{1, 0}, {2, 1}, {4, 3}, {8, 7}, {16, 15}, {30, 31}, {30, 61}, {30, 91}};
        for (int[] piece : pieces) {
            cost.add(piece[0], piece[1], truth.of(piece[0], piece[1]));
        }
        double[] c = cost.coefficients();
        assertArrayEquals(new double[] {80 * MS, 1.5 * MS, 0.002 * MS}, c, 0.01 * MS);
        assertEquals(truth.of(25, 1900), cost.predict(25, 1900), 0.5 * MS);
    }

    @Test
    void onePieceSizeReadsAsFixedCostSoTheNextDoublesAndTellsThemApart() {
        PrefillPacer.PieceCost cost = new PrefillPacer.PieceCost();
        cost.add(1, 0, 100 * MS);
        assertEquals(100 * MS, cost.predict(2, 1), 1e-3 * MS);
        cost.add(2, 1, 104 * MS);
        assertArrayEquals(new double[] {96 * MS, 4 * MS, 0}, cost.coefficients(), 1e-3 * MS);
    }

    @Test
    void slowDecodeStepsDoNotSetTheAllowance() {
        PrefillPacer pacer = new PrefillPacer(PrefillBudget.paced(2.5), 512);
        // a batch's first step, steady ones, then slow ones while a long prompt is received (as measured)
        for (long ms : new long[] {161, 67, 65, 65, 70, 76, 66, 95, 68, 64, 72, 67, 66, 66, 115, 63, 69, 92, 81,
            122, 125, 116, 78, 72, 130, 150, 79, 79, 130}) {
            pacer.forwarded(4, 0, 0, ms * MS);
        }
        assertEquals(68 * MS, pacer.decodeNanos(), 1, "the lower quartile of the last " + PrefillPacer.WINDOW);
        pacer.forwarded(5, 0, 0, 90 * MS);
        assertEquals(90 * MS, pacer.decodeNanos(), 1, "another number of sequences starts afresh");
    }

    @Test
    void fewerStreamsThanADecodeStepWasTimedWithAreTimedAgainFirst() {
        PrefillPacer pacer = new PrefillPacer(PrefillBudget.paced(3), 512);
        // a prompt whose last piece is a full one (1 + 2 + ... + 128, then 128s): the next may be as large again
        prefill(pacer, 8, 160 * MS, new Cost(0, MS, 0), 2047);
        int eight = pacer.tokens(8, 2047);
        assertEquals(0, pacer.tokens(7, 2047), "a step of 7 streams is shorter than one of 8 was");
        pacer.forwarded(7, 0, 0, 80 * MS);
        int seven = pacer.tokens(7, 2047);
        assertTrue(seven > 0 && seven < eight, seven + " tokens beside 7 streams, " + eight + " beside 8");
        assertTrue(pacer.tokens(9, 2047) > 0, "more streams take longer: the figure understates their allowance");
    }

    @Test
    void theBudgetNeverPassesTheChunk() {
        PrefillPacer pacer = new PrefillPacer(PrefillBudget.paced(3), 16);
        List<Step> steps = prefill(pacer, 4, 100 * MS, new Cost(0, MS / 100, 0), 200);
        assertTrue(steps.stream().allMatch(s -> s.tokens() <= 16), steps.toString());
        assertEquals(16, steps.get(steps.size() - 2).tokens());
    }

    @Test
    void budgetsAreEitherFixedOrPaced() {
        assertThrows(IllegalArgumentException.class, () -> new PrefillBudget(0, 0));
        assertThrows(IllegalArgumentException.class, () -> new PrefillBudget(4, 3));
        assertThrows(IllegalArgumentException.class, () -> PrefillBudget.paced(1));
        assertThrows(IllegalArgumentException.class, () -> PrefillBudget.paced(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> PrefillBudget.fixed(-1));
    }

    /**
     * The bound by construction: for any model of this shape whose one-token piece at the prompt's last position
     * fits the margin's allowance, and whose one token's own cost is at most what the margin leaves, every step of the prefill stays within the factor, each piece at most doubles the
     * one before, and the whole prompt goes.
     */
    @Property
    void everyStepStaysWithinTheFactorWheneverOneTokenFits(@ForAll @IntRange(min = 1, max = 2000) int decodeMs,
            @ForAll @DoubleRange(min = 0, max = 0.95) double fixedShare,
            @ForAll @DoubleRange(min = 0.0001, max = 1) @Scale(4) double tokenShare,
            @ForAll @DoubleRange(min = 0, max = 0.001) @Scale(6) double positionShare,
            @ForAll @DoubleRange(min = 1.5, max = 8) double factor,
            @ForAll @IntRange(min = 1, max = 4000) int length) {
        long decode = decodeMs * MS;
        double allowed = PrefillPacer.MARGIN * (factor - 1) * decode;
        Cost cost = new Cost(fixedShare * allowed, tokenShare * allowed, positionShare * tokenShare * allowed);
        // one token at the prompt's end fits, and one token's own cost is within what the margin leaves: the
        // second piece doubles the first on a model that cannot yet tell the fixed cost from the per-token one
        if (cost.of(1, length - 1) > allowed || cost.of(1, length - 1) - cost.fixed() > (1 / PrefillPacer.MARGIN - 1)
                * allowed) {
            return;
        }
        List<Step> steps = prefill(new PrefillPacer(PrefillBudget.paced(factor), 512), 4, decode, cost, length);
        int last = 1;
        int forwarded = 0;
        for (Step step : steps) {
            assertTrue(step.nanos() <= factor * decode * (1 + 1e-9),
                    step + " passes " + factor + " decode steps of " + decode + ": " + cost);
            assertTrue(step.tokens() <= 2 * last, step + " after a piece of " + last);
            last = step.tokens();
            forwarded += step.tokens();
        }
        assertEquals(length, forwarded);
    }
}
