package dev.crucible.server.wiring;

import dev.crucible.adapters.tribuo.OnnxRewardScorer;
import dev.crucible.adapters.tribuo.TribuoRewardTrainer;
import dev.crucible.application.reward.FitRewardModelService;
import dev.crucible.application.reward.RewardLimits;
import dev.crucible.application.reward.RewardModelQueryService;
import dev.crucible.application.reward.RewardModelStore;
import dev.crucible.application.reward.RewardScorer;
import dev.crucible.application.reward.ScoreRewardService;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Reward models: Tribuo fits them and ONNX Runtime scores them (adapters-tribuo), under the bounds of
 * {@code crucible.reward.*} (application.yml), fits on platform threads of their own; the scorer's open sessions are
 * closed on shutdown.
 */
@Factory
class RewardFactory {

    @Singleton
    RewardLimits rewardLimits(RewardSettings settings) {
        return settings.limits();
    }

    @Singleton
    @Bean(typed = {RewardScorer.class, OnnxRewardScorer.class}, preDestroy = "close")
    OnnxRewardScorer rewardScorer(RewardSettings settings) {
        return new OnnxRewardScorer(settings.cachedSessions());
    }

    /** The platform threads fits run on, as many as may run at once; a fit under way is abandoned on shutdown. */
    @Singleton
    @Named("reward-fits")
    @Bean(preDestroy = "shutdownNow")
    ExecutorService rewardFitThreads(RewardLimits limits) {
        return Executors.newFixedThreadPool(limits.maxConcurrentFits(),
                Thread.ofPlatform().name("reward-fit-", 0).daemon(true).factory());
    }

    @Singleton
    FitRewardModelService fitRewardModel(RewardModelStore store, RewardScorer scorer, RewardLimits limits,
            Clock clock, @Named("reward-fits") ExecutorService fitThreads) {
        return new FitRewardModelService(store, new TribuoRewardTrainer(), scorer, limits, clock, fitThreads);
    }

    @Singleton
    ScoreRewardService scoreReward(RewardModelStore store, RewardScorer scorer, RewardLimits limits) {
        return new ScoreRewardService(store, scorer, limits);
    }

    @Singleton
    RewardModelQueryService rewardModelQueries(RewardModelStore store, RewardScorer scorer) {
        return new RewardModelQueryService(store, scorer);
    }
}
