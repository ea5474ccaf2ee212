package dev.crucible.application.training;

import dev.crucible.domain.job.LossFunction;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.trajectory.History;
import dev.crucible.domain.trajectory.HistoryItem;
import dev.crucible.domain.trajectory.SampledToken;
import dev.crucible.domain.trajectory.Trajectory;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import dev.crucible.runtime.training.Conversation;
import dev.crucible.runtime.training.PolicyLoss;
import dev.crucible.runtime.training.RlPlan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** An RL job's trajectory groups and settings as the runtime's training code takes them. */
final class RlInputs {

    private RlInputs() {
    }

    /** The settings {@link dev.crucible.runtime.training.PolicyObjective} reads. */
    static PolicyLoss loss(RlConfig config) {
        return new PolicyLoss(config.lossFunction() == LossFunction.PPO, config.epsilon(), config.epsilonHigh(),
                config.importanceSamplingLevel(), config.maxNegativeAdvantageWeight(), config.maskProbRatio(),
                config.klPenaltyCoef(), config.kimiK2Tau());
    }

    /** Each group's rollouts with their conversations, the main history first. */
    static List<RlPlan.Group> groups(List<TrajectoryGroup> groups) {
        return groups.stream().map(g -> new RlPlan.Group(g.trajectories().stream().map(RlInputs::rollout).toList(),
                g.rewardStdDev())).toList();
    }

    private static RlPlan.Rollout rollout(Trajectory t) {
        List<Conversation> conversations = new ArrayList<>();
        conversations.add(conversation(t.history()));
        t.additionalHistories().forEach(h -> conversations.add(conversation(h)));
        return new RlPlan.Rollout(t.reward(), conversations);
    }

    static Conversation conversation(History history) {
        return new Conversation(history.items().stream().map(RlInputs::turn).toList(), history.tools());
    }

    /** A message as sent; a choice as its assistant message, with its sampled tokens when it carries logprobs. */
    private static Conversation.Turn turn(HistoryItem item) {
        return switch (item) {
            case HistoryItem.Message m -> new Conversation.Turn(m.json(), false, Optional.empty());
            case HistoryItem.Choice c -> {
                Map<String, Object> message = new LinkedHashMap<>(c.message());
                message.putIfAbsent("role", "assistant");
                yield new Conversation.Turn(message, true, c.logprobs().map(tokens -> tokens(tokens, c.tokenIds())));
            }
        };
    }

    /** Each sampled token with the id the sampler gave: its {@code token_id:N}, else the choice's listed id. */
    private static List<Conversation.Token> tokens(List<SampledToken> content, List<Long> tokenIds) {
        List<Conversation.Token> tokens = new ArrayList<>(content.size());
        for (int i = 0; i < content.size(); i++) {
            SampledToken entry = content.get(i);
            Long id = tokenIds.size() == content.size() ? tokenIds.get(i) : null;
            if (entry.namesTokenId()) {
                OptionalInt named = entry.namedTokenId();
                id = named.isPresent() ? Long.valueOf(named.getAsInt()) : null;
            }
            tokens.add(new Conversation.Token(entry.token(), entry.namesTokenId(), id, entry.bytes(), entry.logprob()));
        }
        return tokens;
    }
}
