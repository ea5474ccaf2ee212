package dev.crucible.testsupport.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Comparisons of logit vectors for the engines' tests. */
public final class Logits {

    private Logits() {
    }

    /** The largest absolute difference between two equally long vectors. */
    public static double maxAbsDiff(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new AssertionError("lengths differ: " + a.length + " vs " + b.length);
        }
        double max = 0;
        for (int i = 0; i < a.length; i++) {
            max = Math.max(max, Math.abs((double) a[i] - b[i]));
        }
        return max;
    }

    /** The index of the largest value (the greedy token). */
    public static int argmax(float[] logits) {
        int best = 0;
        for (int i = 1; i < logits.length; i++) {
            if (logits[i] > logits[best]) {
                best = i;
            }
        }
        return best;
    }

    /** Asserts that the vectors are equally long and differ by at most {@code tolerance}; returns the difference. */
    public static double assertClose(float[] expected, float[] actual, double tolerance, String what) {
        assertEquals(expected.length, actual.length, what);
        double diff = maxAbsDiff(expected, actual);
        assertTrue(diff <= tolerance, what + ": max |logit difference| " + diff + " > " + tolerance);
        return diff;
    }
}
