package dev.crucible.domain.reward;

import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.tenancy.Names;
import dev.crucible.kernel.invariant.NonNull;
import java.time.Instant;

/**
 * One fitted version of a reward model of an entity; its fitted weights live beside it in the store.
 *
 * @param id        this version's id
 * @param entity    the tenant that fitted it; no other entity sees it
 * @param project   the project it was fitted for (a name)
 * @param name      the model's name (a name); versions of one name count 1, 2, ... per entity
 * @param version   this version's number, at least 1
 * @param createdAt when the fit ended
 * @param metrics   its held-out metrics
 * @param features  what its features are, in words
 * @param algorithm how it was fitted, in words
 */
public record RewardModel(RewardModelId id, EntityName entity, String project, String name, int version,
        Instant createdAt, RewardMetrics metrics, String features, String algorithm) {

    public RewardModel {
        NonNull.components(RewardModel.class, id, entity, project, name, createdAt, metrics, features, algorithm);
        Names.require("project", project);
        Names.require("name", name);
        if (version < 1) {
            throw new IllegalArgumentException("version must be >= 1, got " + version);
        }
    }
}
