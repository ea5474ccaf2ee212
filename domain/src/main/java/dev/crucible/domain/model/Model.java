package dev.crucible.domain.model;

import dev.crucible.kernel.invariant.NonNull;
import java.time.Instant;

/**
 * A trained model: a LoRA adapter line over one served base model.
 *
 * @param id identity
 * @param coordinates entity, project and name (unique together)
 * @param baseModel name of the served base model the adapters apply to
 * @param createdAt creation time
 * @param latestStep the step of the newest checkpoint (0 right after creation)
 */
public record Model(ModelId id, ModelCoordinates coordinates, String baseModel, Instant createdAt, int latestStep) {

    /** Scheme of the addresses Crucible lists; any scheme is accepted on input. */
    public static final String ADDRESS_SCHEME = "crucible";

    public Model {
        NonNull.components(Model.class, id, coordinates, baseModel, createdAt);
        if (latestStep < 0) {
            throw new IllegalArgumentException("latestStep must be >= 0, got " + latestStep);
        }
    }

    /** A new model; its step-0 checkpoint is created with it ({@link Checkpoint#initial}). */
    public static Model create(ModelCoordinates coordinates, String baseModel, Instant now) {
        return new Model(ModelId.random(), coordinates, baseModel, now, 0);
    }

    /** The address chat requests use for this model's latest checkpoint. */
    public String address() {
        return coordinates.address(ADDRESS_SCHEME);
    }
}
