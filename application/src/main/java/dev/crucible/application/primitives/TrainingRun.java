package dev.crucible.application.primitives;

import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelCoordinates;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.kernel.invariant.NonNull;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * A training run of the primitives: a Crucible model of {@code entity} (its id is the run's id) trained by the
 * operations of its sequence, with the adapter settings it was created with.
 *
 * @param session the client session that created it, when it named one
 */
public record TrainingRun(ModelId model, EntityName entity, Optional<UUID> session, String baseModel,
        LoraSettings lora, Instant createdAt) {

    public TrainingRun {
        NonNull.components(TrainingRun.class, model, entity, session, baseModel, lora, createdAt);
    }

    /** The Crucible address of run {@code model}'s model in {@code entity} (what its usage is counted under). */
    public static String address(EntityName entity, ModelId model) {
        return new ModelCoordinates(entity, CreateRunService.PROJECT, "run-" + model).address(Model.ADDRESS_SCHEME);
    }
}
