package dev.crucible.application.training;

import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.domain.model.CheckpointSteps;
import dev.crucible.domain.model.Model;
import dev.crucible.engine.spi.LoraTrainer;
import dev.crucible.engine.spi.LoraTrainingSpec;
import dev.crucible.runtime.training.TrainingModel;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What one job trains with, decided once when it starts: the step its adapter is stored under travels from here to
 * the result, so the files and the checkpoint row never disagree.
 *
 * @param steps the model's checkpoint steps when the job started
 * @param step  the step this job trains: {@code steps.next()}
 * @param start the adapter folder training continues from (the latest step's); empty for a fresh adapter
 */
record TrainingSetup(Model model, ServedModel base, TrainingModel tokens, CheckpointSteps steps, int step,
        Optional<Path> start) {

    TrainingSetup {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(tokens, "tokens");
        Objects.requireNonNull(steps, "steps");
        Objects.requireNonNull(start, "start");
    }

    /** A trainer continuing from {@link #start()} with the optimiser settings {@code o}. */
    LoraTrainer newTrainer(TrainingSettings settings, TrainingSettings.Optimiser o) {
        return base.training().runner().newTrainer(new LoraTrainingSpec(settings.lora(), start, settings.seed(),
                o.beta1(), o.beta2(), o.epsilon(), o.weightDecay()));
    }
}
