package dev.crucible.runtime.training.loss;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertInvalid;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.engine.spi.TokenObjective;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each loss at points worked out by hand (ratios 2, 1/2, 8, so the clipping is plain to see), the metrics, and the
 * checks of {@code loss_fn_config} and of the inputs.
 */
class LossesTest {

    private static final float LN2 = (float) Math.log(2);

    private static TokenObjective.Evaluation evaluate(LossFunction f, Map<String, Double> config, LossInputs in,
            float[] lp) {
        return Losses.objective(f, config, List.of(in)).evaluate(List.of(lp));
    }

    private static LossInputs rl(float[] advantages, float[] sampler) {
        return new LossInputs(null, advantages, sampler);
    }

    @Test
    void theSamplerLogprobsOfTrainedPositionsAreThoseWithANonZeroAdvantage() {
        // the cookbook's datum: placeholder logprob 0 and advantage 0 over the prompt, the sampled tokens after it
        LossInputs datum = new LossInputs(null, new float[] {0, 0, 1.5f, -0.5f}, new float[] {0, 0, -2, -3});
        assertArrayEquals(new float[] {Float.NaN, Float.NaN, -2, -3}, datum.trainedSamplerLogprobs());
        assertArrayEquals(new float[0], new LossInputs(new float[] {1}, null, null).trainedSamplerLogprobs());
    }

    @Test
    void crossEntropyIsMinusTheWeightedSumOfLogprobs() {
        var e = evaluate(LossFunction.CROSS_ENTROPY, Map.of(), new LossInputs(new float[] {1, 0.5f, 0}, null, null),
                new float[] {-1, -2, -7});
        assertEquals(2.0, e.loss(), 0.0, "1*1 + 0.5*2 + 0*7");
        assertArrayEquals(new float[] {-1, -0.5f, 0}, e.gradients().getFirst(), 0f);
    }

    @Test
    void importanceSamplingIsMinusRatioTimesAdvantage() {
        // r = 2 with A = 3, r = 1 with A = -1: loss -6 + 1.
        var e = evaluate(LossFunction.IMPORTANCE_SAMPLING, Map.of(), rl(new float[] {3, -1}, new float[] {-1 - LN2,
                -0.5f}), new float[] {-1, -0.5f});
        assertEquals(-5.0, e.loss(), 1e-6);
        assertArrayEquals(new float[] {-6, 1}, e.gradients().getFirst(), 1e-6f);
    }

    @Test
    void ppoTakesTheSmallerOfTheRatioAndTheClippedRatioAndPassesNoGradientWhereTheClipWins() {
        // Thresholds 0.8 / 1.2: (r 2, A 1) -> 1.2 clipped; (r 2, A -1) -> -2; (r 1/2, A 1) -> 0.5;
        // (r 1/2, A -1) -> -0.8 clipped; (r 1, A 2) -> 2. Loss = -(1.2 - 2 + 0.5 - 0.8 + 2) = -0.9.
        float[] lp = {-1, -1, -1, -1, -1};
        float[] q = {-1 - LN2, -1 - LN2, -1 + LN2, -1 + LN2, -1};
        LossInputs in = rl(new float[] {1, -1, 1, -1, 2}, q);
        var e = evaluate(LossFunction.PPO, Map.of(), in, lp);
        assertEquals(-0.9, e.loss(), 1e-6);
        assertArrayEquals(new float[] {0, 2, -0.5f, 0, -2}, e.gradients().getFirst(), 1e-6f);
        Map<String, Double> metrics = Losses.metrics(LossFunction.PPO, Map.of(), List.of(in), List.of(lp));
        assertEquals(-0.9, metrics.get("loss:sum"), 1e-6);
        assertEquals(0.4, metrics.get("clip_fraction:mean"), 1e-12, "two of five positions clipped");
        // Widen the range to (0.4, 2.5): nothing is clipped, ppo is importance sampling.
        var wide = evaluate(LossFunction.PPO, Map.of("clip_low_threshold", 0.4, "clip_high_threshold", 2.5), in, lp);
        assertEquals(-(2 - 2 + 0.5 - 0.5 + 2), wide.loss(), 1e-6);
        assertArrayEquals(new float[] {-2, 2, -0.5f, 0.5f, -2}, wide.gradients().getFirst(), 1e-6f);
    }

    @Test
    void cispoWeighsTheLogprobByTheClippedRatioHeldConstant() {
        // Thresholds 0 / 4: (lp -1, r 8, A 1) -> weight 4, loss 4, gradient -4; (lp -2, r 1/2, A 2) -> loss 2,
        // gradient -1.
        LossInputs in = rl(new float[] {1, 2}, new float[] {-1 - 3 * LN2, -2 + LN2});
        float[] lp = {-1, -2};
        var e = evaluate(LossFunction.CISPO, Map.of(), in, lp);
        assertEquals(6.0, e.loss(), 1e-5);
        assertArrayEquals(new float[] {-4, -1}, e.gradients().getFirst(), 1e-5f);
        assertEquals(0.5, Losses.metrics(LossFunction.CISPO, Map.of(), List.of(in), List.of(lp))
                .get("clip_fraction:mean"), 1e-12);
    }

    @Test
    void droIsMinusLogprobTimesAdvantagePlusAQuadraticPenaltyOnTheLogRatio() {
        // beta 0.5, lp -1, q -2, A 2: -(-2 - 0.25) = 2.25; gradient -2 + 0.5 * 1 = -1.5.
        var e = evaluate(LossFunction.DRO, Map.of("beta", 0.5), rl(new float[] {2}, new float[] {-2}),
                new float[] {-1});
        assertEquals(2.25, e.loss(), 1e-9);
        assertArrayEquals(new float[] {-1.5f}, e.gradients().getFirst());
        // The default beta 0.05, lp -1, q -3, A 0: the penalty alone, 0.025 * 4 = 0.1, gradient 0.05 * 2.
        var byDefault = evaluate(LossFunction.DRO, Map.of(), rl(new float[] {0}, new float[] {-3}), new float[] {-1});
        assertEquals(0.1, byDefault.loss(), 1e-9);
        assertArrayEquals(new float[] {0.1f}, byDefault.gradients().getFirst(), 1e-7f);
    }

    @Test
    void lossesAreSumsOverEveryPositionOfEveryDatumNotMeans() {
        List<LossInputs> two = List.of(new LossInputs(new float[] {1}, null, null),
                new LossInputs(new float[] {1, 1, 1}, null, null));
        var e = Losses.objective(LossFunction.CROSS_ENTROPY, Map.of(), two).evaluate(List.of(new float[] {-1},
                new float[] {-1, -1, -1}));
        assertEquals(4.0, e.loss(), 0.0);
        assertEquals(Map.of("loss:sum", 4.0), Losses.metrics(LossFunction.CROSS_ENTROPY, Map.of(), two,
                List.of(new float[] {-1}, new float[] {-1, -1, -1})));
    }

    @Test
    void everyMetricKeyIsANameAndAReduction() {
        for (LossFunction f : LossFunction.values()) {
            LossInputs in = new LossInputs(new float[] {1}, new float[] {1}, new float[] {-1});
            for (String key : Losses.metrics(f, Map.of(), List.of(in), List.of(new float[] {-1})).keySet()) {
                assertEquals(2, key.split(":", -1).length, f + ": " + key);
                assertEquals(true, List.of("mean", "sum", "min", "max").contains(key.split(":")[1]), f + ": " + key);
            }
        }
    }

    @Test
    void configureFillsInTheDefaultsAndKeepsWhatWasSent() {
        assertEquals(Map.of("clip_low_threshold", 0.8, "clip_high_threshold", 1.2),
                value(LossFunction.PPO.configure(Map.of())));
        assertEquals(Map.of("clip_low_threshold", 0.0, "clip_high_threshold", 1.5),
                value(LossFunction.CISPO.configure(Map.of("clip_high_threshold", 1.5))));
        assertEquals(Map.of("beta", 0.05), value(LossFunction.DRO.configure(Map.of())));
        assertEquals(Map.of(), value(LossFunction.CROSS_ENTROPY.configure(Map.of())));
    }

    @Test
    void configureRefusesAnUnknownKeyOrAValueOutOfRangeNamingTheKey() {
        assertInvalid(LossFunction.CROSS_ENTROPY.configure(Map.of("beta", 0.1)), "loss_fn_config.beta",
                "cross_entropy takes no loss_fn_config settings, got 'beta'");
        assertInvalid(LossFunction.PPO.configure(Map.of("clip_ratio", 0.2)), "loss_fn_config.clip_ratio",
                "ppo takes only clip_high_threshold, clip_low_threshold, got 'clip_ratio'");
        assertInvalid(LossFunction.PPO.configure(Map.of("clip_low_threshold", 1.1)),
                "loss_fn_config.clip_low_threshold",
                "loss_fn_config.clip_low_threshold of ppo must be in [0.0, 1.0], got 1.1");
        assertInvalid(LossFunction.CISPO.configure(Map.of("clip_high_threshold", 0.9)),
                "loss_fn_config.clip_high_threshold",
                "loss_fn_config.clip_high_threshold of cispo must be finite and >= 1.0, got 0.9");
        assertInvalid(LossFunction.DRO.configure(Map.of("beta", Double.POSITIVE_INFINITY)), "loss_fn_config.beta",
                "loss_fn_config.beta of dro must be finite and >= 0.0, got Infinity");
        assertInvalid(LossFunction.DRO.configure(Map.of("beta", Double.NaN)), "loss_fn_config.beta",
                "loss_fn_config.beta of dro must be finite and >= 0.0, got NaN");
    }

    @Test
    void inputsOfTheWrongLengthOrCountAreABugOfTheCallerAndThrow() {
        TokenObjective ppo = Losses.objective(LossFunction.PPO, Map.of(), List.of(rl(new float[] {1, 1},
                new float[] {-1})));
        assertEquals("data[0].logprobs must hold 2 values, one per position, got 1",
                assertThrows(IllegalArgumentException.class, () -> ppo.evaluate(List.of(new float[2]))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> ppo.evaluate(List.of()));
        assertThrows(IllegalArgumentException.class, () -> Losses.objective(LossFunction.DRO, Map.of("beta", -1.0),
                List.of()));
    }

    @Test
    void eachLossNamesTheInputsItReadsAndTheSettingsItTakes() {
        assertEquals(LossFunction.PPO, LossFunction.named("ppo").orElseThrow());
        assertEquals(true, LossFunction.named("custom").isEmpty());
        for (LossFunction f : LossFunction.values()) {
            assertEquals(true, f.inputs().contains("target_tokens"), f.wireName());
            assertEquals(f.settings(), f.defaults().keySet(), f.wireName());
        }
        assertEquals(java.util.Set.of("target_tokens", "logprobs", "advantages"), LossFunction.DRO.inputs());
        assertEquals(java.util.Set.of("beta"), LossFunction.DRO.settings());
    }
}
