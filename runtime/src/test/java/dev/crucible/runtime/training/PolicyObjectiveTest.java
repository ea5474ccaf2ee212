package dev.crucible.runtime.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.TokenObjective;
import dev.crucible.engine.spi.TrainingSequence;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The policy losses' gradients against central finite differences, and their values at known points. */
class PolicyObjectiveTest {

    /** ART's defaults for each loss: clip (1 - 0.2, 1 + 0.2) for PPO, (1 - 1, 1 + 4) for CISPO, per-token ratios. */
    private static PolicyLoss defaults(boolean ppo) {
        return ppo ? new PolicyLoss(true, 0.2, 0.2, "token", null, false, 0.0, null)
                : new PolicyLoss(false, 1.0, 4.0, "token", null, false, 0.0, null);
    }

    /** Two sequences of a row, old log-probabilities near the new ones, one unknown, advantages of both signs. */
    private static List<RlSequence> row() {
        Random random = new Random(3);
        List<RlSequence> row = new ArrayList<>();
        int[] lengths = {5, 3};
        double[] advantages = {1.3, -0.7};
        for (int s = 0; s < 2; s++) {
            int n = lengths[s];
            int[] ids = new int[n + 1];
            int[] targets = new int[n];
            float[] old = new float[n];
            for (int t = 0; t < n; t++) {
                targets[t] = t + 1;
                old[t] = (float) (-1.5 + 0.4 * random.nextGaussian());
            }
            if (s == 1) {
                old[1] = Float.NaN;
            }
            row.add(new RlSequence(new TrainingSequence(ids, targets), old, advantages[s], 0.8 + 0.3 * s, s));
        }
        return row;
    }

    private static List<float[]> around(List<RlSequence> row, double spread) {
        Random random = new Random(8);
        List<float[]> now = new ArrayList<>();
        for (RlSequence s : row) {
            float[] lp = new float[s.logprobs().length];
            for (int t = 0; t < lp.length; t++) {
                double base = Float.isNaN(s.logprobs()[t]) ? -1.2 : s.logprobs()[t];
                lp[t] = (float) (base + spread * random.nextGaussian());
            }
            now.add(lp);
        }
        return now;
    }

    static Stream<Arguments> losses() {
        List<Arguments> cases = new ArrayList<>();
        for (boolean ppo : List.of(false, true)) {
            PolicyLoss d = defaults(ppo);
            String loss = ppo ? "ppo" : "cispo";
            for (String level : List.of("token", "sequence", "average", "geometric_average")) {
                cases.add(Arguments.of(loss + " " + level, new PolicyLoss(ppo, d.epsilon(), d.epsilonHigh(), level,
                        null, false, 0.0, null)));
            }
            cases.add(Arguments.of(loss + " kl", new PolicyLoss(ppo, d.epsilon(), d.epsilonHigh(), "token", null, false,
                    0.3, null)));
            cases.add(Arguments.of(loss + " kimi", new PolicyLoss(ppo, d.epsilon(), d.epsilonHigh(), "token", null,
                    false, 0.0, 0.2)));
        }
        cases.add(Arguments.of("ppo narrow clip", new PolicyLoss(true, 0.05, 0.05, "token", null, false, 0.0, null)));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("losses")
    void gradientsMatchCentralFiniteDifferences(String name, PolicyLoss config) {
        List<RlSequence> row = row();
        List<float[]> reference = config.klPenaltyCoef() > 0 ? around(row, 0.3) : null;
        List<float[]> now = around(row, 0.15);
        PolicyObjective objective = new PolicyObjective(row, config, reference, null);
        TokenObjective.Evaluation at = objective.evaluate(now);
        assertEquals(objective.surrogate(now, now), at.loss(), 1e-9, "the loss is the surrogate's value");
        double eps = 1e-3;
        for (int s = 0; s < now.size(); s++) {
            for (int t = 0; t < now.get(s).length; t++) {
                double numeric = (objective.surrogate(nudge(now, s, t, eps), now)
                        - objective.surrogate(nudge(now, s, t, -eps), now)) / (2 * eps);
                assertEquals(numeric, at.gradients().get(s)[t], 2e-3 * Math.max(1, Math.abs(numeric)),
                        name + " sequence " + s + " token " + t);
            }
        }
    }

    private static List<float[]> nudge(List<float[]> now, int s, int t, double delta) {
        List<float[]> nudged = new ArrayList<>();
        for (float[] lp : now) {
            nudged.add(lp.clone());
        }
        nudged.get(s)[t] = (float) (nudged.get(s)[t] + delta);
        return nudged;
    }

    private static final TrainingSequence THREE_TOKENS = new TrainingSequence(new int[] {1, 2, 3}, new int[] {1, 2});

    /** One sequence sampled with {@code old} log-probs, evaluated where the policy now gives {@code now}. */
    private static TokenObjective.Evaluation evaluateOne(PolicyLoss config, TrainingSequence sequence, float[] old,
            double advantage, double weight, float[] now) {
        List<RlSequence> row = List.of(new RlSequence(sequence, old, advantage, weight, 0));
        return new PolicyObjective(row, config, null, null).evaluate(List.of(now));
    }

    @Test
    void cispoOnPolicyIsReinforceWeightedByAdvantageAndTokenWeight() {
        TokenObjective.Evaluation e = evaluateOne(defaults(false), THREE_TOKENS, new float[] {-1f, -2f}, 2.0, 0.5,
                new float[] {-1f, -2f});
        double n = 2 + 1e-6;
        assertEquals(-(2.0 * 0.5 * (-1) + 2.0 * 0.5 * (-2)) / n, e.loss(), 1e-9);
        assertEquals(-2.0 * 0.5 / n, e.gradients().getFirst()[0], 1e-6);
    }

    @Test
    void ppoStopsPushingATokenWhoseRatioLeftTheClipRangeInTheAdvantagesDirection() {
        // Token 0's ratio is e^0.5 > 1.2 with a positive advantage: clipped, no gradient. Token 1's is 1: pushed.
        TokenObjective.Evaluation e = evaluateOne(defaults(true), THREE_TOKENS, new float[] {-1f, -1f}, 1.0, 1.0,
                new float[] {-0.5f, -1f});
        assertEquals(0.0, e.gradients().getFirst()[0], 0.0);
        assertTrue(e.gradients().getFirst()[1] < 0);
    }

    @Test
    void maskedRatiosAndCappedRatiosCarryNoGradient() {
        TrainingSequence twoTokens = new TrainingSequence(new int[] {1, 2}, new int[] {1});
        PolicyLoss masked = new PolicyLoss(true, 0.2, 0.2, "token", null, true, 0.0, null);
        assertEquals(0.0, evaluateOne(masked, twoTokens, new float[] {-1f}, 1.0, 1.0, new float[] {0f})
                .gradients().getFirst()[0], 0.0);
        PolicyLoss capped = new PolicyLoss(true, 0.2, 0.2, "token", 1.1, false, 0.0, null);
        assertEquals(0.0, evaluateOne(capped, twoTokens, new float[] {-1f}, 1.0, 1.0, new float[] {-0.5f})
                .gradients().getFirst()[0], 0.0);
    }
}
