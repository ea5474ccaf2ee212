package dev.crucible.adapters.persistence.reward;

import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.reward.NewRewardModel;
import dev.crucible.application.reward.RewardArtifact;
import dev.crucible.application.reward.RewardModelStore;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.reward.RewardModel;
import dev.crucible.domain.reward.RewardModelId;
import dev.crucible.domain.tenancy.EntityName;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.sql.Array;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Reward models in {@code reward_models}; every statement is scoped by entity; pages by (created_at, id). */
@Singleton
@Transactional
class JdbcRewardModelStore implements RewardModelStore {

    private final Sql sql;

    JdbcRewardModelStore(Sql sql) {
        this.sql = sql;
    }

    @Override
    public RewardModel insertNextVersion(NewRewardModel model, RewardArtifact artifact) {
        // Fits of one entity's name queue on this lock for the rest of the transaction: number, then insert.
        sql.lockUntilCommit("reward_models/" + model.entity().value() + "/" + model.name());
        int version = sql.queryOne("SELECT coalesce(max(version), 0) + 1 FROM reward_models WHERE entity = ? AND name = ?",
                rs -> rs.getInt(1), model.entity().value(), model.name()).orElseThrow();
        RewardModel stored = model.as(version);
        sql.update("INSERT INTO reward_models (" + RewardModelRow.COLUMNS + ", onnx, feature_names, positive_column) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                stored.id().value(), stored.entity().value(), stored.project(), stored.name(), stored.version(),
                stored.createdAt(), stored.metrics().accuracy(), stored.metrics().auc(), stored.metrics().trainSize(),
                stored.metrics().testSize(), stored.features(), stored.algorithm(), artifact.onnx(),
                artifact.featureNames().toArray(String[]::new), artifact.positiveColumn());
        return stored;
    }

    @Override
    public Optional<RewardModel> find(EntityName entity, RewardModelId id) {
        return sql.queryOne("SELECT " + RewardModelRow.COLUMNS + " FROM reward_models WHERE entity = ? AND id = ?",
                RewardModelRow::read, entity.value(), id.value()).map(RewardModelRow::toDomain);
    }

    @Override
    public Optional<RewardArtifact> artifact(EntityName entity, RewardModelId id) {
        return sql.queryOne("SELECT onnx, feature_names, positive_column FROM reward_models WHERE entity = ? AND id = ?",
                rs -> {
                    Array names = rs.getArray("feature_names");
                    try {
                        return new RewardArtifact(rs.getBytes("onnx"), Arrays.asList((String[]) names.getArray()),
                                rs.getInt("positive_column"));
                    } finally {
                        names.free();
                    }
                }, entity.value(), id.value());
    }

    @Override
    public List<RewardModel> fetchPage(EntityName entity, PageRequest page, Optional<RewardModel> after) {
        String direction = page.order() == SortOrder.ASC ? "ASC" : "DESC";
        String comparison = page.order() == SortOrder.ASC ? ">" : "<";
        List<Object> params = new ArrayList<>(List.of(entity.value()));
        after.ifPresent(cursor -> params.addAll(List.of(cursor.createdAt(), cursor.id().value())));
        params.add(page.fetchSize());
        return sql.query("SELECT " + RewardModelRow.COLUMNS + " FROM reward_models WHERE entity = ?"
                        + (after.isPresent() ? " AND (created_at, id) " + comparison + " (?, ?)" : "")
                        + " ORDER BY created_at " + direction + ", id " + direction + " LIMIT ?",
                RewardModelRow::read, params.toArray()).stream().map(RewardModelRow::toDomain).toList();
    }

    @Override
    public boolean delete(EntityName entity, RewardModelId id) {
        return sql.update("DELETE FROM reward_models WHERE entity = ? AND id = ?", entity.value(), id.value()) > 0;
    }
}
