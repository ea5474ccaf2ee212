package dev.crucible.server.wiring;

import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.model.DeleteCheckpointsUseCase;
import dev.crucible.application.primitives.DeleteSavedStateService;
import dev.crucible.application.primitives.PrimitiveStore;
import dev.crucible.application.primitives.TrainingRunsService;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/** Tinker's REST side: the reads over training runs and their checkpoints, and deleting a checkpoint. */
@Factory
class TinkerRestFactory {

    @Singleton
    TrainingRunsService trainingRuns(PrimitiveStore store, AdapterFiles adapters, PrimitiveSettings settings) {
        return new TrainingRunsService(store, adapters, settings.maxRunsPage());
    }

    @Singleton
    DeleteSavedStateService deleteSavedState(PrimitiveStore store, DeleteCheckpointsUseCase checkpoints) {
        return new DeleteSavedStateService(store, checkpoints);
    }
}
