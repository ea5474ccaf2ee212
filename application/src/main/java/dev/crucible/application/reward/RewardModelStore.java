package dev.crucible.application.reward;

import dev.crucible.application.paging.OwnedRows;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.reward.RewardModel;
import dev.crucible.domain.reward.RewardModelId;
import dev.crucible.domain.tenancy.EntityName;
import java.util.List;
import java.util.Optional;

/**
 * Where fitted reward models live, with their artifacts. Every read is scoped by entity: another entity's model is
 * absent. Thread-safe; each method is one transaction.
 */
public interface RewardModelStore extends OwnedRows<RewardModel, RewardModelId> {

    /**
     * Stores {@code model} with {@code artifact} as the next version of its entity's models of its name (1 for the
     * first); two fits of one name at once get two numbers.
     *
     * @return the stored model, with its version
     */
    RewardModel insertNextVersion(NewRewardModel model, RewardArtifact artifact);

    /** The model {@code id} of {@code entity}; empty when it does not exist or belongs to another entity. */
    Optional<RewardModel> find(EntityName entity, RewardModelId id);

    /** The artifact of model {@code id} of {@code entity}; empty as {@link #find} is. */
    Optional<RewardArtifact> artifact(EntityName entity, RewardModelId id);

    /**
     * Up to {@code page.fetchSize()} models of {@code entity}, ordered by creation time and then id in
     * {@code page.order()}, starting after {@code after} (exclusive) when given.
     */
    List<RewardModel> fetchPage(EntityName entity, PageRequest page, Optional<RewardModel> after);

    /** Deletes model {@code id} of {@code entity} with its artifact; false when there was none. */
    boolean delete(EntityName entity, RewardModelId id);
}
