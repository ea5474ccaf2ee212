package dev.crucible.application.training;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.trajectory.History;
import dev.crucible.domain.trajectory.HistoryItem;
import dev.crucible.domain.trajectory.Trajectory;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import dev.crucible.runtime.training.Conversation;
import dev.crucible.runtime.training.PolicyLoss;
import dev.crucible.runtime.training.RlPlan;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RlInputsTest {

    @SafeVarargs
    private static History history(Map<String, Object>... items) {
        return new History(List.of(items).stream().map(HistoryItem::of).toList(), List.of());
    }

    @Test
    void theObjectiveGetsArtsDefaultsForCispo() {
        assertEquals(new PolicyLoss(false, 1.0, 4.0, "token", null, false, 0.0, null),
                RlInputs.loss(RlConfig.defaults()));
    }

    @Test
    void aChoiceRendersAsItsAssistantMessageAndNamesEachTokensIdAsTheSamplerGaveIt() {
        Map<String, Object> choice = Map.of("message", Map.of("content", "ab"), "token_ids", List.of(7, 8, 9),
                "logprobs", Map.of("content", List.of(Map.of("token", "token_id:3", "logprob", -0.5),
                        Map.of("token", "token_id:x"), Map.of("token", "b", "bytes", List.of(98)))));
        Conversation c = RlInputs.conversation(history(Map.of("role", "user", "content", "q"), choice));
        assertEquals(new Conversation.Turn(Map.of("role", "user", "content", "q"), false, Optional.empty()),
                c.turns().get(0));
        Conversation.Turn sampled = c.turns().get(1);
        assertEquals(Map.of("role", "assistant", "content", "ab"), sampled.message());
        assertEquals(List.of(new Conversation.Token("token_id:3", true, 3L, List.of(), -0.5),
                new Conversation.Token("token_id:x", true, null, List.of(), null),
                new Conversation.Token("b", false, 9L, List.of(98), null)), sampled.sampled().orElseThrow());
    }

    @Test
    void aChoiceWithoutLogprobsHasNoSampledTokens() {
        Conversation c = RlInputs.conversation(history(Map.of("message", Map.of("role", "assistant", "content", "x"))));
        assertEquals(new Conversation.Turn(Map.of("role", "assistant", "content", "x"), true, Optional.empty()),
                c.turns().getFirst());
    }

    @Test
    void eachRolloutCarriesItsMainHistoryFirstAndItsGroupsRewardSpread() {
        History main = history(Map.of("role", "user", "content", "a"));
        History extra = history(Map.of("role", "user", "content", "b"));
        TrajectoryGroup group = new TrajectoryGroup(List.of(new Trajectory(main, List.of(extra), 0.0, Map.of()),
                new Trajectory(main, List.of(), 1.0, Map.of())), 0, Map.of());
        RlPlan.Group g = RlInputs.groups(List.of(group)).getFirst();
        assertEquals(0.5, g.rewardStdDev(), 1e-12);
        assertEquals(List.of(RlInputs.conversation(main), RlInputs.conversation(extra)),
                g.rollouts().get(0).conversations());
        assertEquals(1.0, g.rollouts().get(1).reward());
    }
}
