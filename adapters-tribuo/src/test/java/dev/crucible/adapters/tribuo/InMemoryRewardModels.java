package dev.crucible.adapters.tribuo;

import dev.crucible.application.reward.NewRewardModel;
import dev.crucible.application.reward.RewardArtifact;
import dev.crucible.application.reward.RewardModelStore;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.reward.RewardModel;
import dev.crucible.domain.reward.RewardModelId;
import dev.crucible.domain.tenancy.EntityName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A {@link RewardModelStore} in a map, for tests of the fit through the application's use case. */
final class InMemoryRewardModels implements RewardModelStore {

    private final Map<RewardModelId, RewardModel> models = new LinkedHashMap<>();
    private final Map<RewardModelId, RewardArtifact> artifacts = new LinkedHashMap<>();

    @Override
    public synchronized RewardModel insertNextVersion(NewRewardModel model, RewardArtifact artifact) {
        int version = 1 + (int) models.values().stream()
                .filter(m -> m.entity().equals(model.entity()) && m.name().equals(model.name())).count();
        RewardModel stored = model.as(version);
        models.put(stored.id(), stored);
        artifacts.put(stored.id(), artifact);
        return stored;
    }

    @Override
    public synchronized Optional<RewardModel> find(EntityName entity, RewardModelId id) {
        return Optional.ofNullable(models.get(id)).filter(m -> m.entity().equals(entity));
    }

    @Override
    public synchronized Optional<RewardArtifact> artifact(EntityName entity, RewardModelId id) {
        return find(entity, id).map(m -> artifacts.get(id));
    }

    @Override
    public synchronized List<RewardModel> fetchPage(EntityName entity, PageRequest page, Optional<RewardModel> after) {
        return new ArrayList<>(models.values().stream().filter(m -> m.entity().equals(entity)).toList());
    }

    @Override
    public synchronized boolean delete(EntityName entity, RewardModelId id) {
        artifacts.remove(id);
        return find(entity, id).isPresent() && models.remove(id) != null;
    }
}
