package dev.crucible.application.reward;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.reward.RewardExample;
import dev.crucible.domain.reward.RewardItem;
import dev.crucible.domain.reward.RewardModel;
import dev.crucible.domain.reward.RewardModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The fit use case with hand-written ports: what reaches the trainer, the metrics, and the fit bounds (429). */
class FitRewardModelServiceTest {

    private static final Caller ADA = new Caller(new EntityName("ada"), UUID.randomUUID());
    private static final Caller BEA = new Caller(new EntityName("bea"), UUID.randomUUID());

    /** Scores by the answer's text: "good..." 0.9, anything else 0.1; a fit waits on {@code gate} when given one. */
    private static final class Ports implements RewardTrainer, RewardScorer, RewardModelStore {

        final List<List<RewardExample>> fitted = new ArrayList<>();
        final List<RewardModel> stored = new ArrayList<>();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch gate = new CountDownLatch(0);

        @Override
        public RewardArtifact fit(List<RewardExample> train, int epochs, long seed) {
            synchronized (this) {
                fitted.add(train);
            }
            entered.countDown();
            try {
                assertTrue(gate.await(30, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return new RewardArtifact(new byte[] {1}, List.of("f"), 1);
        }

        @Override
        public String features() {
            return "test features";
        }

        @Override
        public String algorithm() {
            return "test algorithm";
        }

        @Override
        public List<Double> score(RewardArtifact artifact, List<RewardItem> items) {
            return items.stream().map(i -> i.answer().startsWith("good") ? 0.9 : 0.1).toList();
        }

        @Override
        public List<Double> score(RewardModelId id, Supplier<RewardArtifact> artifact, List<RewardItem> items) {
            return score(artifact.get(), items);
        }

        @Override
        public void forget(RewardModelId id) {
        }

        @Override
        public synchronized RewardModel insertNextVersion(NewRewardModel model, RewardArtifact artifact) {
            RewardModel numbered = model.as(stored.size() + 1);
            stored.add(numbered);
            return numbered;
        }

        @Override
        public Optional<RewardModel> find(EntityName entity, RewardModelId id) {
            return Optional.empty();
        }

        @Override
        public Optional<RewardArtifact> artifact(EntityName entity, RewardModelId id) {
            return Optional.empty();
        }

        @Override
        public List<RewardModel> fetchPage(EntityName entity, PageRequest page, Optional<RewardModel> after) {
            return List.of();
        }

        @Override
        public boolean delete(EntityName entity, RewardModelId id) {
            return false;
        }
    }

    private final Ports ports = new Ports();
    private final FitRewardModelService fits = new FitRewardModelService(ports, ports, ports,
            new RewardLimits(10, 100, 100, 10, 5, 1, 1), Clock.systemUTC(), Runnable::run);

    private static List<RewardExample> examples(int good, int bad) {
        List<RewardExample> examples = new ArrayList<>();
        for (int i = 0; i < good + bad; i++) {
            examples.add(new RewardExample("p" + i, (i < good ? "good " : "bad ") + i, i < good));
        }
        return examples;
    }

    private Outcome<RewardModel> fit(Caller caller) {
        return fits.fit(new FitRewardModelUseCase.Command(caller, "proj", "judge", examples(10, 10)));
    }

    @Test
    void theTrainerSeesOnlyTheTrainingPartAndTheMetricsComeFromTheHeldOutPart() {
        RewardModel model = value(fit(ADA));

        assertEquals(16, ports.fitted.getFirst().size());
        assertEquals(16, model.metrics().trainSize());
        assertEquals(4, model.metrics().testSize());
        assertEquals(1.0, model.metrics().auc());
        assertEquals(1.0, model.metrics().accuracy());
        assertEquals("test features", model.features());
        assertEquals(1, model.version());
    }

    @Test
    void aKeyRunsOneFitAtATimeAndTheServerItsMost() throws Exception {
        ports.gate = new CountDownLatch(1);
        CompletableFuture<Outcome<RewardModel>> running = CompletableFuture.supplyAsync(() -> fit(ADA));
        assertTrue(ports.entered.await(30, TimeUnit.SECONDS));

        assertTrue(assertRefused(fit(ADA), Refusal.Reason.OVERLOADED, null).contains("crucible.reward.fits-per-key"));
        assertTrue(assertRefused(fit(BEA), Refusal.Reason.OVERLOADED, null)
                .contains("crucible.reward.max-concurrent-fits"));

        ports.gate.countDown();
        value(running.get(30, TimeUnit.SECONDS));
        assertEquals(2, value(fit(ADA)).version(), "both places are given back");
        value(fit(BEA));
    }
}
