package dev.crucible.server.wiring;

import dev.crucible.application.completion.StoredCompletionStore;
import dev.crucible.application.dataset.DatasetRewardExamples;
import dev.crucible.application.dataset.DatasetService;
import dev.crucible.application.dataset.DatasetStore;
import dev.crucible.application.dataset.LineageService;
import dev.crucible.application.dataset.LineageStore;
import dev.crucible.application.dataset.ReadDatasetContentUseCase;
import dev.crucible.application.dataset.RewardModelScores;
import dev.crucible.application.reward.RewardLimits;
import dev.crucible.application.reward.ScoreRewardUseCase;
import dev.crucible.application.feedback.FeedbackStore;
import dev.crucible.application.job.dataset.JsonLineParser;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.model.ModelStore;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * Datasets and lineage: a dataset holds at most {@code crucible.datasets.max-rows} rows (100,000) and reads at most
 * {@code crucible.datasets.max-completions} stored completions (200,000); {@code reward.model} scores with the
 * caller's reward models, {@code crucible.reward.max-score-items} answers a call; {@code crucible.lineage.refuse-erasure}
 * (false) makes deleting a stored completion or feedback row that trained a checkpoint a 409.
 */
@Factory
class DatasetFactory {

    @Singleton
    DatasetService datasets(StoredCompletionStore completions, FeedbackStore feedback, DatasetStore store,
            ScoreRewardUseCase rewards, RewardLimits rewardLimits, Clock clock, DatasetSettings.Datasets settings) {
        return new DatasetService(completions, feedback, store,
                new RewardModelScores(rewards, rewardLimits.maxScoreItems()), settings.limits(), clock);
    }

    /** Preference and rl datasets as a reward model's examples ({@code "dataset"} on {@code POST /v1/reward-models}). */
    @Singleton
    DatasetRewardExamples rewardExamples(ReadDatasetContentUseCase datasets, JsonLineParser parser) {
        return new DatasetRewardExamples(datasets, parser);
    }

    @Singleton
    LineageService lineage(ModelStore models, CheckpointStore checkpoints, LineageStore lineage,
            DatasetSettings.Lineage settings) {
        return new LineageService(models, checkpoints, lineage, settings.refuseErasure());
    }
}
