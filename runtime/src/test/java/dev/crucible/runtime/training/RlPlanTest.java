package dev.crucible.runtime.training;

import static dev.crucible.runtime.training.TrainingFixtures.choice;
import static dev.crucible.runtime.training.TrainingFixtures.conversation;
import static dev.crucible.runtime.training.TrainingFixtures.said;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RlPlanTest {

    private static RlPlan.Rollout rollout(String sampled, double reward) {
        return new RlPlan.Rollout(reward, List.of(conversation(said("user", "q"), choice(sampled, true))));
    }

    /** Rollouts of 1, 2, 3... sampled tokens with these rewards, and the rewards' population standard deviation. */
    private static RlPlan.Group group(double... rewards) {
        List<RlPlan.Rollout> rs = new ArrayList<>();
        double mean = 0;
        for (int i = 0; i < rewards.length; i++) {
            rs.add(rollout("a".repeat(i + 1), rewards[i]));
            mean += rewards[i] / rewards.length;
        }
        double squares = 0;
        for (double r : rewards) {
            squares += (r - mean) * (r - mean);
        }
        return new RlPlan.Group(rs, Math.sqrt(squares / rewards.length));
    }

    /** A plan with ART's defaults: advantages normalised, not balanced. */
    private static RlPlan plan(RlPlan.Group... groups) {
        return plan(true, 0.0, groups);
    }

    private static RlPlan plan(boolean normalize, double balance, RlPlan.Group... groups) {
        return RlPlan.of(List.of(groups), normalize, balance,
                new TrajectoryTokenizer(TrainingFixtures.model(4096), false), 4096);
    }

    @Test
    void groupsWithOneTrajectoryOrOneRewardAreSkippedAndStillCounted() {
        RlPlan plan = plan(group(1, 1, 1), group(0.5), group(0, 1));
        assertEquals(3, plan.groupsSubmitted());
        assertEquals(1, plan.groupsTrainable());
        assertEquals(2, plan.trajectoriesTrained());
        assertEquals(1, plan.rows().size(), "short sequences pack into one row: one optimiser step");
    }

    @Test
    void nothingTrainableGivesNoRows() {
        RlPlan plan = plan(group(2, 2));
        assertEquals(List.of(), plan.rows());
        assertEquals(0, plan.trainedTokens());
    }

    @Test
    void advantagesAreGroupRelativeThenNormalisedToUnitWeightedMagnitude() {
        // Rewards 0 and 1: mean 0.5, population std 0.5, so raw advantages are -1 and +1 before normalising.
        RlPlan plan = plan(group(0, 1));
        List<RlSequence> row = plan.rows().getFirst();
        assertEquals(-1.0, row.get(0).advantage(), 1e-5);
        assertEquals(1.0, row.get(1).advantage(), 1e-5);
        double weighted = 0;
        long tokens = 0;
        for (RlSequence s : row) {
            weighted += s.weight() * s.sequence().targetCount();
            tokens += s.sequence().targetCount();
        }
        assertEquals(1.0, weighted / tokens, 1e-9, "weights average 1 over trained tokens");
        // Each trajectory's tokens share its weight: 1/2 for the 2-token one, 1/3 for the 3-token one, rescaled.
        assertEquals(2.0 / 3.0, row.get(1).weight() / row.get(0).weight(), 1e-9);
    }

    @Test
    void advantageBalanceShrinksOneSignBeforeNormalising() {
        RlPlan plan = plan(false, 0.5, group(0, 1));
        List<RlSequence> row = plan.rows().getFirst();
        assertEquals(-0.5, row.get(0).advantage() / row.get(1).advantage(), 1e-9);
    }
}
