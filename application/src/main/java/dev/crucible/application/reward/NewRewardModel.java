package dev.crucible.application.reward;

import dev.crucible.domain.reward.RewardMetrics;
import dev.crucible.domain.reward.RewardModel;
import dev.crucible.domain.reward.RewardModelId;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;

/** A fitted reward model before the store numbers its version; the fields are {@link RewardModel}'s. */
public record NewRewardModel(RewardModelId id, EntityName entity, String project, String name, Instant createdAt,
        RewardMetrics metrics, String features, String algorithm) {

    /** This model as version {@code version}, checked as {@link RewardModel} checks it. */
    public RewardModel as(int version) {
        return new RewardModel(id, entity, project, name, version, createdAt, metrics, features, algorithm);
    }
}
