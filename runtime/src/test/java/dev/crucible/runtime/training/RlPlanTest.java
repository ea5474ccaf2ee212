package dev.crucible.runtime.training;

import static dev.crucible.runtime.training.TrainingFixtures.choice;
import static dev.crucible.runtime.training.TrainingFixtures.history;
import static dev.crucible.runtime.training.TrainingFixtures.message;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.trajectory.Trajectory;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RlPlanTest {

    private static RlConfig config(Map<String, Object> experimental) {
        return ((Outcome.Done<RlConfig>) RlConfig.resolve(experimental)).value();
    }

    private static Trajectory trajectory(String sampled, double reward) {
        return new Trajectory(history(List.of(message("user", "q"), choice(sampled, true))), List.of(), reward,
                Map.of());
    }

    private static TrajectoryGroup group(double... rewards) {
        List<Trajectory> ts = new ArrayList<>();
        for (int i = 0; i < rewards.length; i++) {
            ts.add(trajectory("a".repeat(i + 1), rewards[i]));
        }
        return new TrajectoryGroup(ts, 0, Map.of());
    }

    private static RlPlan plan(Map<String, Object> experimental, TrajectoryGroup... groups) {
        return RlPlan.of(List.of(groups), config(experimental),
                new TrajectoryTokenizer(TrainingFixtures.model(4096), false), 4096);
    }

    @Test
    void groupsWithOneTrajectoryOrOneRewardAreSkippedAndStillCounted() {
        RlPlan plan = plan(Map.of(), group(1, 1, 1), group(0.5), group(0, 1));
        assertEquals(3, plan.groupsSubmitted());
        assertEquals(1, plan.groupsTrainable());
        assertEquals(2, plan.trajectoriesTrained());
        assertEquals(1, plan.rows().size(), "short sequences pack into one row: one optimiser step");
    }

    @Test
    void nothingTrainableGivesNoRows() {
        RlPlan plan = plan(Map.of(), group(2, 2));
        assertEquals(List.of(), plan.rows());
        assertEquals(0, plan.trainedTokens());
    }

    @Test
    void advantagesAreGroupRelativeThenNormalisedToUnitWeightedMagnitude() {
        // Rewards 0 and 1: mean 0.5, population std 0.5, so raw advantages are -1 and +1 before normalising.
        RlPlan plan = plan(Map.of(), group(0, 1));
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
        RlPlan plan = plan(Map.of("advantage_balance", 0.5, "scale_rewards", false), group(0, 1));
        List<RlSequence> row = plan.rows().getFirst();
        assertEquals(-0.5, row.get(0).advantage() / row.get(1).advantage(), 1e-9);
    }
}
