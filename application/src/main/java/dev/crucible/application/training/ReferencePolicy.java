package dev.crucible.application.training;

import dev.crucible.application.model.AdapterFiles;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.engine.spi.LoraTrainer;
import dev.crucible.engine.spi.LoraTrainingSpec;
import dev.crucible.engine.spi.TrainingSequence;
import dev.crucible.runtime.training.TrainingInputException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The reference policy of an RL job's KL penalty: the base model, or the adapter of a chosen step
 * ({@code kl_penalty_reference_step}, or the job's step minus one minus {@code kl_penalty_step_lag}). Owns the
 * reference adapter's trainer, if any, until closed.
 *
 * @param adapter the fixed reference adapter; null when the reference is the base model
 */
record ReferencePolicy(LoraTrainer adapter) implements AutoCloseable {

    /** The job's reference policy; null when it has no KL penalty. */
    static ReferencePolicy of(TrainingSetup setup, RlConfig config, AdapterFiles adapters, TrainingSettings settings) {
        if (!(config.klPenaltyCoef() > 0)) {
            return null;
        }
        Integer step = config.klPenaltyReferenceStep() != null ? config.klPenaltyReferenceStep()
                : config.klPenaltyStepLag() != null ? Math.max(0, setup.step() - 1 - config.klPenaltyStepLag())
                : null;
        if (step == null) {
            return new ReferencePolicy(null);
        }
        if (!setup.steps().contains(step)) {
            throw new TrainingInputException("experimental_config.kl_penalty_reference_step: the model has no "
                    + "checkpoint at step " + step);
        }
        Optional<Path> folder = adapters.stepFolder(setup.model().id(), step);
        return new ReferencePolicy(folder.isEmpty() ? null : setup.base().training().runner().newTrainer(
                new LoraTrainingSpec(settings.lora(), folder, settings.seed(), 0.9, 0.99, 1e-8, 0)));
    }

    /** Reference log-probabilities of {@code row}: from the fixed adapter when one is set, else from the base model. */
    List<float[]> logprobs(LoraTrainer trained, List<TrainingSequence> row) {
        return adapter == null ? trained.logprobs(row, false) : adapter.logprobs(row, true);
    }

    @Override
    public void close() {
        if (adapter != null) {
            adapter.close();
        }
    }
}
