package dev.crucible.application.dataset;

import dev.crucible.domain.dataset.Dataset;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import java.util.List;

/**
 * The datasets a checkpoint of the caller's model was trained on, each with its stored completion and feedback ids;
 * a model of another entity is not found ({@code model_id}), a step it lacks too ({@code step}).
 */
public interface CheckpointLineageUseCase {

    Outcome<List<Dataset>> lineage(Caller caller, ModelId model, int step);
}
