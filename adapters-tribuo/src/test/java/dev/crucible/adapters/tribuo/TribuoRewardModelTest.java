package dev.crucible.adapters.tribuo;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.reward.FitRewardModelService;
import dev.crucible.application.reward.FitRewardModelUseCase;
import dev.crucible.application.reward.RewardArtifact;
import dev.crucible.application.reward.RewardLimits;
import dev.crucible.domain.reward.RewardExample;
import dev.crucible.domain.reward.RewardItem;
import dev.crucible.domain.reward.RewardModel;
import dev.crucible.domain.reward.RewardModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.tribuo.classification.LabelFactory;

/** The Tribuo fit, its ONNX export scored by ONNX Runtime, and the fit use case's refusals before any fitting. */
class TribuoRewardModelTest {

    private static final Caller ADA = new Caller(new EntityName("ada"), UUID.randomUUID());
    private static final RewardLimits LIMITS = new RewardLimits(10, 1000, 2000, 100, 5, 1, 2);

    private final TribuoRewardTrainer trainer = new TribuoRewardTrainer();
    @AutoClose
    private final OnnxRewardScorer scorer = new OnnxRewardScorer(2);
    private final InMemoryRewardModels store = new InMemoryRewardModels();
    private final FitRewardModelService fits = new FitRewardModelService(store, trainer, scorer, LIMITS,
            Clock.systemUTC(), Runnable::run);

    private static List<RewardItem> items(List<RewardExample> examples) {
        return examples.stream().map(e -> new RewardItem(e.prompt(), e.answer())).toList();
    }

    /** The AUC by its definition: over every (good, bad) pair, 1 when the good one scores higher, 1/2 on a tie. */
    private static double pairwiseAuc(List<Double> scores, List<RewardExample> examples) {
        double wins = 0;
        long pairs = 0;
        for (int i = 0; i < scores.size(); i++) {
            for (int j = 0; j < scores.size(); j++) {
                if (examples.get(i).positive() && !examples.get(j).positive()) {
                    pairs++;
                    int order = Double.compare(scores.get(i), scores.get(j));
                    wins += order > 0 ? 1 : order == 0 ? 0.5 : 0;
                }
            }
        }
        return wins / pairs;
    }

    @Test
    void aFitOnSeparableExamplesRanksHeldOutOnesAlmostPerfectly() {
        RewardArtifact artifact = trainer.fit(SyntheticExamples.of(300, 1), 5, 42);
        List<RewardExample> unseen = SyntheticExamples.of(100, 2);

        List<Double> scores = scorer.score(artifact, items(unseen));

        assertTrue(pairwiseAuc(scores, unseen) > 0.9, "AUC " + pairwiseAuc(scores, unseen));
        assertTrue(artifact.featureNames().stream().allMatch(n -> n.startsWith("prompt-") || n.startsWith("answer-")),
                artifact.featureNames().toString());
    }

    @Test
    void onnxRuntimeScoresAgreeWithTribuosOwnPredictions() {
        var model = trainer.train(SyntheticExamples.of(200, 3), 5, 42);
        RewardArtifact artifact = trainer.export(model);
        List<RewardExample> unseen = Stream.concat(SyntheticExamples.of(60, 4).stream(),
                Stream.of(new RewardExample("", "the river runs under blue light, helpful", true),
                        new RewardExample("", "correct", false)))
                .toList();

        List<Double> onnx = scorer.score(artifact, items(unseen));

        TribuoTextFeatures features = new TribuoTextFeatures();
        for (int i = 0; i < unseen.size(); i++) {
            var example = TribuoRewardTrainer.example(LabelFactory.UNKNOWN_LABEL,
                    features.of(unseen.get(i).prompt(), unseen.get(i).answer()));
            double tribuo = model.predict(example).getOutputScores().get(TribuoRewardTrainer.GOOD).getScore();
            assertEquals(tribuo, onnx.get(i), 1e-5, "item " + i);
        }
    }

    @Test
    void theSameExamplesAndSeedGiveTheSameScores() {
        List<RewardItem> unseen = items(SyntheticExamples.of(20, 5));
        var first = scorer.score(trainer.fit(SyntheticExamples.of(100, 6), 3, 7), unseen);
        var second = scorer.score(trainer.fit(SyntheticExamples.of(100, 6), 3, 7), unseen);
        assertEquals(first, second);
    }

    @Test
    void storedModelsAreScoredFromABoundedCacheOfSessions() {
        RewardArtifact artifact = trainer.fit(SyntheticExamples.of(100, 8), 3, 42);
        List<RewardItem> unseen = items(SyntheticExamples.of(10, 9));
        List<Double> expected = scorer.score(artifact, unseen);

        for (int i = 0; i < 3; i++) {
            assertEquals(expected, scorer.score(RewardModelId.random(), () -> artifact, unseen));
        }
        assertEquals(2, scorer.kept());
    }

    @Test
    void theUseCaseFitsStoresVersionsAndReportsHeldOutMetrics() {
        var command = new FitRewardModelUseCase.Command(ADA, "proj", "judge", SyntheticExamples.of(200, 10));
        RewardModel first = value(fits.fit(command));
        RewardModel second = value(fits.fit(command));

        assertEquals(1, first.version());
        assertEquals(2, second.version());
        assertEquals(40, first.metrics().testSize());
        assertEquals(160, first.metrics().trainSize());
        assertTrue(first.metrics().auc() > 0.9, first.metrics().toString());
        assertTrue(first.metrics().accuracy() > 0.8, first.metrics().toString());
        assertEquals(first.metrics(), second.metrics(), "a seeded split and fit");
    }

    @Test
    void oneLabelOnlyIsRefusedNamingTheExamples() {
        List<RewardExample> allGood = SyntheticExamples.of(40, 11).stream()
                .map(e -> new RewardExample(e.prompt(), e.answer(), true)).toList();
        String message = assertRefused(fits.fit(new FitRewardModelUseCase.Command(ADA, "proj", "judge", allGood)),
                Refusal.Reason.INVALID, "examples");
        assertTrue(message.contains("both labels"), message);
    }

    @Test
    void tooFewExamplesOrTooFewOfALabelAreRefused() {
        String few = assertRefused(fits.fit(new FitRewardModelUseCase.Command(ADA, "proj", "judge",
                SyntheticExamples.of(9, 12))), Refusal.Reason.INVALID, "examples");
        assertTrue(few.contains("at least 10 examples"), few);

        List<RewardExample> oneBad = Stream.concat(Stream.of(new RewardExample("p", "a", false)),
                SyntheticExamples.of(40, 13).stream().filter(RewardExample::positive)).toList();
        String lopsided = assertRefused(fits.fit(new FitRewardModelUseCase.Command(ADA, "proj", "judge", oneBad)),
                Refusal.Reason.INVALID, "examples");
        assertTrue(lopsided.contains("20 true and 1 false"), lopsided);
    }

    @Test
    void tooManyExamplesAreTooLargeAndLongTextsNameTheirField() {
        assertRefused(fits.fit(new FitRewardModelUseCase.Command(ADA, "proj", "judge", SyntheticExamples.of(1001, 14))),
                Refusal.Reason.TOO_LARGE, "examples");
        var examples = new java.util.ArrayList<>(SyntheticExamples.of(20, 15));
        examples.set(3, new RewardExample("p", "x".repeat(2001), true));
        assertRefused(fits.fit(new FitRewardModelUseCase.Command(ADA, "proj", "judge", examples)),
                Refusal.Reason.INVALID, "examples[3].answer");
        assertRefused(fits.fit(new FitRewardModelUseCase.Command(ADA, "proj", "a/b", examples)),
                Refusal.Reason.INVALID, "name");
    }
}
