package dev.crucible.runtime.generation.sampling;

import java.util.ArrayList;
import java.util.List;

/** Log-probabilities of raw logits and vLLM's top-N list. Stateless. */
public final class LogSoftmax {

    private LogSoftmax() {
    }

    /** {@code log_softmax} in double precision: {@code x - max - log(sum(exp(x - max)))}. */
    public static double[] of(float[] logits) {
        double max = Double.NEGATIVE_INFINITY;
        for (float x : logits) {
            max = Math.max(max, x);
        }
        double sum = 0;
        for (float x : logits) {
            sum += Math.exp(x - max);
        }
        double shift = max + Math.log(sum);
        double[] out = new double[logits.length];
        for (int id = 0; id < logits.length; id++) {
            out[id] = logits[id] - shift;
        }
        return out;
    }

    /**
     * The first {@code n} entries of vLLM's per-position dict: the sampled token, then the top-ranked tokens other
     * than it (higher logprob first, ties by lower id).
     */
    static List<Candidate> top(double[] logprobs, int sampled, int n) {
        List<Candidate> out = new ArrayList<>(n);
        if (n == 0) {
            return out;
        }
        out.add(new Candidate(sampled, logprobs[sampled]));
        boolean[] taken = new boolean[logprobs.length];
        taken[sampled] = true;
        // n <= 20, so n linear scans beat sorting the vocabulary
        while (out.size() < n && out.size() < logprobs.length) {
            int best = -1;
            for (int id = 0; id < logprobs.length; id++) {
                if (!taken[id] && (best < 0 || logprobs[id] > logprobs[best])) {
                    best = id;
                }
            }
            taken[best] = true;
            out.add(new Candidate(best, logprobs[best]));
        }
        return out;
    }
}
