package dev.crucible.runtime.training.loss;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.TokenObjective;
import dev.crucible.kernel.refusal.Refusal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;

/**
 * The losses on random log-probabilities, advantages, weights and settings against {@link ReferenceLoss}: the value
 * against the formula, the gradient against central finite differences of the formula in double precision and of the
 * production loss itself; cross-entropy linear in its weights; ppo equal to importance sampling (and cispo's gradient
 * to its gradient) when nothing is clipped; {@code loss_fn_config} refused exactly when a key is unknown or a value
 * out of range.
 */
class LossesPropertiesTest {

    /** Random datums: log-probabilities in (-8, 0), the sampler's near them, so ratios straddle the clips. */
    private record Batch(List<float[]> lp, List<LossInputs> inputs, List<ReferenceLoss.Datum> reference) {

        static Batch random(long seed, int datums, double spread) {
            Random random = new Random(seed);
            List<float[]> lp = new ArrayList<>();
            List<LossInputs> inputs = new ArrayList<>();
            List<ReferenceLoss.Datum> reference = new ArrayList<>();
            for (int d = 0; d < datums; d++) {
                int n = 1 + random.nextInt(6);
                float[] x = new float[n];
                float[] w = new float[n];
                float[] a = new float[n];
                float[] q = new float[n];
                for (int i = 0; i < n; i++) {
                    x[i] = (float) (-8 * random.nextDouble());
                    q[i] = (float) Math.min(0, x[i] + spread * random.nextGaussian());
                    w[i] = (float) (3 * random.nextDouble() - 1);
                    a[i] = random.nextInt(5) == 0 ? 0 : (float) (2 * random.nextGaussian());
                }
                lp.add(x);
                inputs.add(new LossInputs(w, a, q));
                reference.add(new ReferenceLoss.Datum(widen(w), widen(a), widen(q)));
            }
            return new Batch(lp, inputs, reference);
        }

        List<double[]> live() {
            return lp.stream().map(LossesPropertiesTest::widen).toList();
        }
    }

    private static double[] widen(float[] values) {
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i];
        }
        return out;
    }

    private static Map<String, Double> config(LossFunction f, double low, double high, double beta) {
        return switch (f) {
            case PPO, CISPO -> Map.of("clip_low_threshold", low, "clip_high_threshold", high);
            case DRO -> Map.of("beta", beta);
            case CROSS_ENTROPY, IMPORTANCE_SAMPLING -> Map.of();
        };
    }

    @Property(tries = 400)
    void everyLossAndItsGradientMatchTheFormulaAndItsFiniteDifferences(@ForAll LossFunction f,
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 4) int datums,
            @ForAll @DoubleRange(min = 0, max = 1) double low, @ForAll @DoubleRange(min = 1, max = 5) double high,
            @ForAll @DoubleRange(min = 0, max = 2) double beta) {
        Batch batch = Batch.random(seed, datums, 0.4);
        Map<String, Double> config = config(f, low, high, beta);
        TokenObjective.Evaluation e = Losses.objective(f, config, batch.inputs()).evaluate(batch.lp());
        List<double[]> at = batch.live();
        double expected = ReferenceLoss.loss(f.wireName(), low, high, beta, at, at, batch.reference());
        assertEquals(expected, e.loss(), 1e-12 * Math.max(1, Math.abs(expected)), "loss");
        assertEquals(expected, Losses.metrics(f, config, batch.inputs(), batch.lp()).get("loss:sum"),
                1e-12 * Math.max(1, Math.abs(expected)), "loss:sum");
        for (int d = 0; d < datums; d++) {
            float[] lp = batch.lp().get(d);
            for (int i = 0; i < lp.length; i++) {
                if (f == LossFunction.PPO && nearAKink(lp[i] - (double) batch.reference().get(d).sampler()[i], low,
                        high)) {
                    continue;
                }
                double numeric = ReferenceLoss.derivative(f.wireName(), low, high, beta, at, batch.reference(), d, i,
                        1e-6);
                double actual = e.gradients().get(d)[i];
                assertEquals(numeric, actual, 1e-6 + 1e-5 * Math.abs(numeric), f + " datum " + d + " position " + i);
                assertEquals(numeric, ownDerivative(f, config, batch, d, i), 1e-3 + 1e-3 * Math.abs(numeric),
                        f + " own finite difference, datum " + d + " position " + i);
            }
        }
    }

    /**
     * A position the objective calls constant ({@code graded} false) has a zero derivative at any log-probability, so
     * an engine may leave it out of the backward pass; and a zero weight (cross_entropy) or a zero advantage (the
     * policy losses, dro without its penalty) is exactly what makes one constant.
     */
    @Property(tries = 300)
    void aPositionDeclaredConstantHasAZeroDerivativeAtAnyLogprob(@ForAll LossFunction f, @ForAll long seed,
            @ForAll @DoubleRange(min = 0, max = 1) double low, @ForAll @DoubleRange(min = 1, max = 5) double high,
            @ForAll boolean penalised) {
        Random random = new Random(seed);
        int n = 12;
        float[] weights = new float[n];
        float[] advantages = new float[n];
        float[] sampler = new float[n];
        for (int i = 0; i < n; i++) {
            weights[i] = random.nextBoolean() ? 0 : (float) random.nextGaussian();
            advantages[i] = random.nextBoolean() ? 0 : (float) random.nextGaussian();
            sampler[i] = (float) (-8 * random.nextDouble());
        }
        double beta = penalised ? 0.5 : 0;
        TokenObjective objective = Losses.objective(f, config(f, low, high, beta),
                List.of(new LossInputs(weights, advantages, sampler)));
        for (int trial = 0; trial < 3; trial++) {
            float[] lp = new float[n];
            for (int i = 0; i < n; i++) {
                lp[i] = (float) (-8 * random.nextDouble());
            }
            float[] gradient = objective.evaluate(List.of(lp)).gradients().getFirst();
            for (int i = 0; i < n; i++) {
                boolean constant = switch (f) {
                    case CROSS_ENTROPY -> weights[i] == 0;
                    case IMPORTANCE_SAMPLING, PPO, CISPO -> advantages[i] == 0;
                    case DRO -> advantages[i] == 0 && !penalised;
                };
                assertEquals(!constant, objective.graded(0, i), f + " position " + i);
                assertFalse(objective.measuresEntropy(), "Tinker's outputs carry no entropies");
                if (constant) {
                    assertEquals(0.0, gradient[i], 0.0, f + " position " + i);
                }
            }
        }
    }

    /**
     * PPO's derivative jumps where the ratio crosses a threshold; a finite difference across one measures nothing
     * (the float steps below are 1e-2 wide).
     */
    private static boolean nearAKink(double logRatio, double low, double high) {
        return Math.abs(logRatio - Math.log(high)) < 2e-2 || low > 0 && Math.abs(logRatio - Math.log(low)) < 2e-2;
    }

    /**
     * Central finite difference of the production loss itself, with steps a float can hold (the objective takes
     * float log-probabilities): the step actually taken is measured, not assumed. CISPO's stop-gradient makes its
     * loss not the integral of its gradient, so its term is checked against the reference alone.
     */
    private static double ownDerivative(LossFunction f, Map<String, Double> config, Batch batch, int d, int i) {
        if (f == LossFunction.CISPO) {
            return Losses.objective(f, config, batch.inputs()).evaluate(batch.lp()).gradients().get(d)[i];
        }
        float x = batch.lp().get(d)[i];
        float up = x + 1e-2f;
        float down = x - 1e-2f;
        return (lossWith(f, config, batch, d, i, up) - lossWith(f, config, batch, d, i, down))
                / ((double) up - (double) down);
    }

    private static double lossWith(LossFunction f, Map<String, Double> config, Batch batch, int d, int i, float v) {
        List<float[]> lp = batch.lp().stream().map(float[]::clone).toList();
        lp.get(d)[i] = v;
        return Losses.objective(f, config, batch.inputs()).evaluate(lp).loss();
    }

    @Property(tries = 300)
    void crossEntropyIsLinearInItsWeights(@ForAll long seed, @ForAll @IntRange(min = 1, max = 4) int datums,
            @ForAll @DoubleRange(min = -3, max = 3) double alpha, @ForAll @DoubleRange(min = -3, max = 3) double beta) {
        Batch one = Batch.random(seed, datums, 0);
        Batch two = Batch.random(seed + 1, datums, 0);
        List<LossInputs> mixed = new ArrayList<>();
        List<LossInputs> first = new ArrayList<>();
        List<LossInputs> second = new ArrayList<>();
        for (int d = 0; d < datums; d++) {
            int n = one.lp().get(d).length;
            float[] w1 = java.util.Arrays.copyOf(one.inputs().get(d).weights(), n);
            float[] w2 = java.util.Arrays.copyOf(two.inputs().get(d).weights(), n);
            float[] w = new float[n];
            for (int i = 0; i < n; i++) {
                // Exact in float: multiples of 1/8 times small integers.
                w1[i] = Math.round(w1[i] * 8) / 8f;
                w2[i] = Math.round(w2[i] * 8) / 8f;
                w[i] = (float) (alpha * w1[i] + beta * w2[i]);
            }
            mixed.add(new LossInputs(w, null, null));
            first.add(new LossInputs(w1, null, null));
            second.add(new LossInputs(w2, null, null));
        }
        var m = Losses.objective(LossFunction.CROSS_ENTROPY, Map.of(), mixed).evaluate(one.lp());
        var a = Losses.objective(LossFunction.CROSS_ENTROPY, Map.of(), first).evaluate(one.lp());
        var b = Losses.objective(LossFunction.CROSS_ENTROPY, Map.of(), second).evaluate(one.lp());
        double combined = alpha * a.loss() + beta * b.loss();
        assertEquals(combined, m.loss(), 1e-5 * Math.max(1, Math.abs(combined)));
        for (int d = 0; d < datums; d++) {
            for (int i = 0; i < one.lp().get(d).length; i++) {
                double g = alpha * a.gradients().get(d)[i] + beta * b.gradients().get(d)[i];
                assertEquals(g, m.gradients().get(d)[i], 1e-5 * Math.max(1, Math.abs(g)));
            }
        }
    }

    @Property(tries = 300)
    void ppoIsImportanceSamplingAndCispoHasItsGradientWhenNothingIsClipped(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 4) int datums, @ForAll @DoubleRange(min = 0.5, max = 1) double low,
            @ForAll @DoubleRange(min = 1, max = 2) double high) {
        Batch batch = Batch.random(seed, datums, 0);
        Random random = new Random(~seed);
        List<LossInputs> inside = new ArrayList<>();
        for (int d = 0; d < datums; d++) {
            float[] lp = batch.lp().get(d);
            float[] q = new float[lp.length];
            for (int i = 0; i < lp.length; i++) {
                // A ratio strictly inside [low, high], with room for float rounding of q.
                double ratio = low + (high - low) * (0.01 + 0.98 * random.nextDouble());
                q[i] = (float) (lp[i] - Math.log(ratio));
            }
            inside.add(new LossInputs(null, batch.inputs().get(d).advantages(), q));
        }
        Map<String, Double> clip = Map.of("clip_low_threshold", low, "clip_high_threshold", high);
        var is = Losses.objective(LossFunction.IMPORTANCE_SAMPLING, Map.of(), inside).evaluate(batch.lp());
        var ppo = Losses.objective(LossFunction.PPO, clip, inside).evaluate(batch.lp());
        var cispo = Losses.objective(LossFunction.CISPO, clip, inside).evaluate(batch.lp());
        assertEquals(is.loss(), ppo.loss(), 0.0);
        for (int d = 0; d < datums; d++) {
            assertArrayEquals(is.gradients().get(d), ppo.gradients().get(d), 0f);
            assertArrayEquals(is.gradients().get(d), cispo.gradients().get(d), 0f);
        }
        assertEquals(0.0, Losses.metrics(LossFunction.PPO, clip, inside, batch.lp()).get("clip_fraction:mean"));
        assertEquals(0.0, Losses.metrics(LossFunction.CISPO, clip, inside, batch.lp()).get("clip_fraction:mean"));
    }

    @Property(tries = 500)
    void aConfigIsRefusedExactlyWhenAKeyIsUnknownOrAValueOutOfRange(@ForAll LossFunction f,
            @ForAll @AlphaChars @StringLength(min = 1, max = 20) String key, @ForAll boolean known,
            @ForAll @DoubleRange(min = -10, max = 10) double value, @ForAll boolean special) {
        List<String> names = new ArrayList<>(f.defaults().keySet());
        String name = known && !names.isEmpty() ? names.get(Math.floorMod(key.hashCode(), names.size())) : key;
        double v = special ? List.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY)
                .get(Math.floorMod(key.hashCode(), 3)) : value;
        Map<String, Double> config = new HashMap<>();
        config.put(name, v);
        boolean inRange = switch (name) {
            case "clip_low_threshold" -> v >= 0 && v <= 1;
            case "clip_high_threshold", "beta" -> Double.isFinite(v) && v >= (name.equals("beta") ? 0 : 1);
            default -> false;
        };
        if (f.settings().contains(name) && inRange) {
            Map<String, Double> resolved = value(f.configure(config));
            assertEquals(f.settings(), resolved.keySet());
            assertEquals(v, resolved.get(name));
        } else {
            String message = assertRefused(f.configure(config), Refusal.Reason.INVALID, "loss_fn_config." + name);
            assertTrue(message.contains(name), message);
        }
    }
}
