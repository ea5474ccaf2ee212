package dev.crucible.runtime.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The drift between trainer and sampler: its k3 KL against the exact {@code KL(q || p)} of two small distributions,
 * its means and maxima against hand-worked values, unknown sampler log-probabilities left out, and on random inputs
 * the estimator's bounds.
 */
class LogprobDriftTest {

    @Test
    void k3OverTokensDrawnInProportionToTheSamplerIsTheExactKlFromSamplerToTrainer() {
        double[] q = {0.5, 0.25, 0.25};
        double[] p = {0.2, 0.3, 0.5};
        // four tokens in the sampler's proportions: two of the first, one of each other
        int[] drawn = {0, 0, 1, 2};
        float[] trainer = new float[drawn.length];
        float[] sampler = new float[drawn.length];
        for (int i = 0; i < drawn.length; i++) {
            trainer[i] = (float) Math.log(p[drawn[i]]);
            sampler[i] = (float) Math.log(q[drawn[i]]);
        }
        double kl = 0;
        for (int i = 0; i < q.length; i++) {
            kl += q[i] * Math.log(q[i] / p[i]);
        }
        LogprobDrift drift = LogprobDrift.measure(List.of(trainer), List.of(sampler)).orElseThrow();
        assertEquals(kl, drift.klK3(), 1e-6);
        assertEquals(4, drift.tokens());
    }

    @Test
    void meanAndLargestDifferenceLeaveOutTokensWithoutASamplerLogprob() {
        List<float[]> trainer = List.of(new float[] {-1.0f, -2.0f, -3.0f}, new float[] {-0.5f});
        List<float[]> sampler = List.of(new float[] {-1.5f, Float.NaN, -2.0f}, new float[] {-0.5f});
        LogprobDrift drift = LogprobDrift.measure(trainer, sampler).orElseThrow();
        assertEquals(3, drift.tokens());
        assertEquals((0.5 + 1.0 + 0.0) / 3, drift.meanAbs(), 1e-9);
        assertEquals(1.0, drift.maxAbs(), 1e-9);
        assertTrue(drift.exceeds(0.4));
        assertFalse(drift.exceeds(0.5));
    }

    @Test
    void aStepWhoseTokensCarryNoSamplerLogprobHasNoDrift() {
        assertEquals(Optional.empty(), LogprobDrift.measure(List.of(new float[] {-1f, -2f}),
                List.of(new float[] {Float.NaN, Float.NaN})));
        assertEquals(Optional.empty(), LogprobDrift.measure(List.of(), List.of()));
    }

    @Test
    void identicalLogprobsDriftByNothing() {
        float[] same = {-0.1f, -4f, -12f};
        LogprobDrift drift = LogprobDrift.measure(List.of(same), List.of(same.clone())).orElseThrow();
        assertEquals(0.0, drift.meanAbs());
        assertEquals(0.0, drift.maxAbs());
        assertEquals(0.0, drift.klK3());
    }

    @Test
    void refusesLogprobsShapedDifferently() {
        assertThrows(IllegalArgumentException.class,
                () -> LogprobDrift.measure(List.of(new float[2]), List.of(new float[3])));
        assertThrows(IllegalArgumentException.class,
                () -> LogprobDrift.measure(List.of(new float[2]), List.of()));
    }

    @Test
    void theFailureSentenceNamesTheDriftTheLimitAndTheSetting() {
        LogprobDrift drift = new LogprobDrift(7, 0.25, 1.5, 0.03);
        String text = drift.describe(0.1, "experimental_config.max_logprob_drift");
        assertTrue(text.contains("0.250000") && text.contains("7 tokens") && text.contains("1.50000")
                && text.contains("experimental_config.max_logprob_drift = 0.1"), text);
        assertEquals(0.25, drift.eventMetrics().get("sampler_logprob_diff_mean"));
        assertEquals(1.5, drift.tinkerMetrics().get("sampler_logprob_diff_max:max"));
    }

    @Property(tries = 200)
    void theEstimatesKeepTheirBounds(@ForAll long seed, @ForAll @IntRange(min = 1, max = 5) int sequences,
            @ForAll @DoubleRange(min = 0, max = 3) double spread) {
        Random random = new Random(seed);
        List<float[]> trainer = new ArrayList<>();
        List<float[]> sampler = new ArrayList<>();
        double largest = 0;
        long known = 0;
        for (int s = 0; s < sequences; s++) {
            int n = random.nextInt(6);
            float[] now = new float[n];
            float[] old = new float[n];
            for (int t = 0; t < n; t++) {
                now[t] = (float) (-10 * random.nextDouble());
                old[t] = random.nextInt(4) == 0 ? Float.NaN : (float) (now[t] + spread * random.nextGaussian());
                if (!Float.isNaN(old[t])) {
                    known++;
                    largest = Math.max(largest, Math.abs((double) now[t] - old[t]));
                }
            }
            trainer.add(now);
            sampler.add(old);
        }
        Optional<LogprobDrift> drift = LogprobDrift.measure(trainer, sampler);
        assertEquals(known == 0, drift.isEmpty());
        if (drift.isPresent()) {
            LogprobDrift d = drift.get();
            assertEquals(known, d.tokens());
            assertEquals(largest, d.maxAbs(), 1e-12);
            assertTrue(d.meanAbs() <= d.maxAbs() + 1e-12, d.toString());
            assertTrue(d.klK3() >= 0, d.toString());
            // exp(x) - x - 1 <= x^2 / 2 * exp(max(x, 0)): the estimate is at most half the largest squared difference
            // times e^largest
            assertTrue(d.klK3() <= largest * largest / 2 * Math.exp(largest) + 1e-12, d.toString());
        }
    }
}
