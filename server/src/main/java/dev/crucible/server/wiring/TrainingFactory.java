package dev.crucible.server.wiring;

import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.application.job.JobTrainer;
import dev.crucible.application.job.SftDatasetLoader;
import dev.crucible.application.job.UnavailableTrainer;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.model.ModelStore;
import dev.crucible.application.training.LoraJobTrainer;
import dev.crucible.application.training.TrainingSettings;
import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineProvider;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.List;

/** The job trainer: LoRA training on the engine that serves each base model, when an installed engine can train. */
@Factory
class TrainingFactory {

    @Singleton
    JobTrainer trainer(List<EngineProvider> engines, ModelStore models, CheckpointStore checkpoints,
            AdapterFiles adapters, ServedModels served, SftDatasetLoader sftDatasets, Clock clock) {
        if (engines.stream().noneMatch(e -> e.capabilities().contains(Capability.TRAINING))) {
            return new UnavailableTrainer(engines);
        }
        return new LoraJobTrainer(models, checkpoints, adapters, served, sftDatasets::load,
                TrainingSettings.defaults(), clock);
    }
}
