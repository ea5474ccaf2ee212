package dev.crucible.adapters.http.reward;

import dev.crucible.domain.reward.RewardMetrics;
import dev.crucible.domain.reward.RewardModel;
import io.micronaut.serde.annotation.Serdeable;

/** A reward model on the wire: {@code created_at} in Unix seconds, its held-out metrics, features and algorithm. */
@Serdeable(naming = io.micronaut.serde.config.naming.SnakeCaseStrategy.class)
record RewardModelView(String id, String object, String name, String project, int version, long createdAt,
        Metrics metrics, String features, String algorithm) {

    /** The metrics measured on the examples held out of the fit. */
    @Serdeable(naming = io.micronaut.serde.config.naming.SnakeCaseStrategy.class)
    record Metrics(double accuracy, double auc, int trainSize, int testSize) {

        static Metrics of(RewardMetrics metrics) {
            return new Metrics(metrics.accuracy(), metrics.auc(), metrics.trainSize(), metrics.testSize());
        }
    }

    static RewardModelView of(RewardModel model) {
        return new RewardModelView(model.id().toString(), "reward_model", model.name(), model.project(),
                model.version(), model.createdAt().getEpochSecond(), Metrics.of(model.metrics()), model.features(),
                model.algorithm());
    }
}
