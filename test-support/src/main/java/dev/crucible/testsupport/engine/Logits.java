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

    /** {@code log softmax(logits)[token]}, in double, shifted by the largest logit so no exponential overflows. */
    public static double logSoftmax(float[] logits, int token) {
        double max = Double.NEGATIVE_INFINITY;
        for (float v : logits) {
            max = Math.max(max, v);
        }
        double sum = 0;
        for (float v : logits) {
            sum += Math.exp(v - max);
        }
        return logits[token] - max - Math.log(sum);
    }

    /** Asserts that the vectors are equally long and differ by at most {@code tolerance}; returns the difference. */
    public static double assertClose(float[] expected, float[] actual, double tolerance, String what) {
        assertEquals(expected.length, actual.length, what);
        double diff = maxAbsDiff(expected, actual);
        assertTrue(diff <= tolerance, what + ": max |logit difference| " + diff + " > " + tolerance);
        return diff;
    }
}
