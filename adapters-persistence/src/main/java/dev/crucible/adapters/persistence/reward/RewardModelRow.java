package dev.crucible.adapters.persistence.reward;

import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.domain.reward.RewardMetrics;
import dev.crucible.domain.reward.RewardModel;
import dev.crucible.domain.reward.RewardModelId;
import dev.crucible.domain.tenancy.EntityName;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

/** A row of {@code reward_models} without its artifact columns. */
record RewardModelRow(UUID id, String entity, String project, String name, int version, Instant createdAt,
        double accuracy, double auc, int trainSize, int testSize, String features, String algorithm) {

    static final String COLUMNS = "id, entity, project, name, version, created_at, accuracy, auc, train_size, "
            + "test_size, features, algorithm";

    static RewardModelRow read(ResultSet rs) throws SQLException {
        return new RewardModelRow(Sql.uuid(rs, "id"), rs.getString("entity"), rs.getString("project"),
                rs.getString("name"), rs.getInt("version"), Sql.instant(rs, "created_at"), rs.getDouble("accuracy"),
                rs.getDouble("auc"), rs.getInt("train_size"), rs.getInt("test_size"), rs.getString("features"),
                rs.getString("algorithm"));
    }

    RewardModel toDomain() {
        return new RewardModel(new RewardModelId(id), new EntityName(entity), project, name, version, createdAt,
                new RewardMetrics(accuracy, auc, trainSize, testSize), features, algorithm);
    }
}
