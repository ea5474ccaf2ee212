package dev.crucible.application.reward;

import dev.crucible.application.primitives.KeyBudget;
import dev.crucible.domain.reward.RewardExample;
import dev.crucible.domain.reward.RewardItem;
import dev.crucible.domain.reward.RewardMetrics;
import dev.crucible.domain.reward.RewardModel;
import dev.crucible.domain.reward.RewardModelId;
import dev.crucible.domain.tenancy.Names;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;

/**
 * Checks the examples, takes a place for the caller's key and one of the server's, splits the examples (seeded,
 * stratified), fits on the larger part, scores the held-out part with the fitted artifact through the scorer that
 * will serve it, and stores the model with those metrics. The fit runs on {@code fitThreads} while the caller waits:
 * CPU work kept off event loops and off the carriers of virtual threads, which a long computation would pin. The
 * server-wide bound means {@code fitThreads} never needs more than {@code maxConcurrentFits} threads.
 */
public final class FitRewardModelService implements FitRewardModelUseCase {

    /** The seed of the held-out split and of the fit, so that the same examples give the same model. */
    public static final long SEED = 42L;
    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    private final RewardModelStore store;
    private final RewardTrainer trainer;
    private final RewardScorer scorer;
    private final RewardLimits limits;
    private final Clock clock;
    private final KeyBudget perKey;
    private final Semaphore server;
    private final Executor fitThreads;

    public FitRewardModelService(RewardModelStore store, RewardTrainer trainer, RewardScorer scorer,
            RewardLimits limits, Clock clock, Executor fitThreads) {
        this.store = store;
        this.trainer = trainer;
        this.scorer = scorer;
        this.limits = limits;
        this.clock = clock;
        this.perKey = new KeyBudget(limits.fitsPerKey());
        this.server = new Semaphore(limits.maxConcurrentFits());
        this.fitThreads = fitThreads;
    }

    @Override
    public Outcome<RewardModel> fit(Command command) {
        Optional<Refusal> refusal = Optional.ofNullable(Names.problem("project", command.project()))
                .map(problem -> Refusal.invalid("project", problem))
                .or(() -> Optional.ofNullable(Names.problem("name", command.name()))
                        .map(problem -> Refusal.invalid("name", problem)))
                .or(() -> RewardInputs.checkExamples(command.examples(), limits));
        if (refusal.isPresent()) {
            return Outcome.refused(refusal.get());
        }
        if (!perKey.tryTake(command.caller().keyId())) {
            return Outcome.refused(Refusal.overloaded("this API key already runs " + limits.fitsPerKey()
                    + " reward-model fits, its most (setting crucible.reward.fits-per-key)", RETRY_AFTER));
        }
        try {
            if (!server.tryAcquire()) {
                return Outcome.refused(Refusal.overloaded("the server already runs " + limits.maxConcurrentFits()
                        + " reward-model fits, its most (setting crucible.reward.max-concurrent-fits)", RETRY_AFTER));
            }
            try {
                return Outcome.done(onFitThread(command));
            } finally {
                server.release();
            }
        } finally {
            perKey.give(command.caller().keyId());
        }
    }

    private RewardModel onFitThread(Command command) {
        try {
            return CompletableFuture.supplyAsync(() -> fitAndStore(command), fitThreads).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    private RewardModel fitAndStore(Command command) {
        HeldOutSplit split = HeldOutSplit.of(command.examples(), SEED);
        RewardArtifact artifact = trainer.fit(split.train(), limits.epochs(), SEED);
        List<Double> scores = scorer.score(artifact,
                split.test().stream().map(e -> new RewardItem(e.prompt(), e.answer())).toList());
        List<Boolean> labels = split.test().stream().map(RewardExample::positive).toList();
        RewardMetrics metrics = new RewardMetrics(RankMetrics.accuracy(scores, labels), RankMetrics.auc(scores, labels),
                split.train().size(), split.test().size());
        NewRewardModel model = new NewRewardModel(RewardModelId.random(), command.caller().entity(), command.project(),
                command.name(), clock.instant(), metrics, trainer.features(), trainer.algorithm());
        return store.insertNextVersion(model, artifact);
    }
}
