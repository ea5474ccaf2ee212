package dev.crucible.application.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.crucible.engine.spi.TrainingBatchResult;
import dev.crucible.engine.spi.TrainingSequence;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The gradient_step event data and the checkpoint summary that the RL and SFT loops share. */
class StepMetricsTest {

    private static final List<TrainingSequence> BATCH = List.of(
            new TrainingSequence(new int[] {1, 2, 3, 4}, new int[] {2, 3}),
            new TrainingSequence(new int[] {5, 6}, new int[] {1}));
    private static final TrainingBatchResult RESULT = new TrainingBatchResult(0.5, List.of(),
            List.of(new float[] {1f, 2f}, new float[] {3f}));

    @Test
    void aStepReportsItsNumbersTokensAndRates() {
        StepMetrics metrics = new StepMetrics();
        Map<String, Number> step = metrics.record(0.5, 0.25, 1e-5, RESULT, BATCH, 2_000_000_000L);
        assertEquals(1, step.get("gradient_step"));
        assertEquals(0.5, step.get("loss"));
        assertEquals(0.25, step.get("grad_norm"));
        assertEquals(1e-5, step.get("learning_rate"));
        assertEquals(2.0, step.get("entropy"), "the mean over every trained position");
        assertEquals(3L, step.get("num_trainable_tokens"));
        assertEquals(6L, step.get("num_tokens"));
        assertEquals(3.0, step.get("tokens_per_second"));
        assertEquals(1.5, step.get("trainable_tokens_per_second"));
        assertEquals(List.of("gradient_step", "loss", "grad_norm", "learning_rate", "entropy", "num_trainable_tokens",
                "num_tokens", "tokens_per_second", "trainable_tokens_per_second"), List.copyOf(step.keySet()));
        assertEquals(2, metrics.record(1.5, 0.75, 1e-5, RESULT, BATCH, 1).get("gradient_step"));
    }

    @Test
    void aNonFiniteGradientIsFlaggedAndNoNonFiniteNumberIsWritten() {
        Map<String, Number> step = new StepMetrics().record(Double.NaN, Double.POSITIVE_INFINITY, 1e-5,
                new TrainingBatchResult(Double.NaN, List.of(), List.of()), BATCH, 0);
        assertEquals(1, step.get("skipped_non_finite_gradient"));
        assertFalse(step.containsKey("grad_norm"));
        assertFalse(step.containsKey("loss"), "NaN would break ART's client, which reads every value as a float");
        assertEquals(0.0, step.get("entropy"), "no entropies: 0");
        step.values().forEach(v -> assertFalse(Double.isNaN(v.doubleValue()) || Double.isInfinite(v.doubleValue())));
    }

    @Test
    void theSummaryAveragesLossAndNormOverTheSteps() {
        StepMetrics metrics = new StepMetrics();
        assertEquals(Map.of("data/step_num_gradient_steps", 0.0, "data/step_trainer_tokens", 0.0), metrics.summary());
        metrics.record(0.5, 0.25, 1e-5, RESULT, BATCH, 1);
        metrics.record(1.5, 0.75, 1e-5, RESULT, BATCH, 1);
        assertEquals(Map.of("data/step_num_gradient_steps", 2.0, "data/step_trainer_tokens", 6.0, "loss/train", 1.0,
                "loss/grad_norm", 0.5), metrics.summary());
    }

    @Test
    void finiteDropsOnlyNonFiniteValues() {
        Map<String, Number> values = new HashMap<>(Map.of("a", 1, "b", Double.NaN, "c", Double.NEGATIVE_INFINITY,
                "d", 2.5));
        assertEquals(Map.of("a", 1, "d", 2.5), StepMetrics.finite(values));
    }
}
