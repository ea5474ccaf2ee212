package dev.crucible.application.process;

import dev.crucible.domain.model.ModelId;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One change to what the API processes serve, as the database recorded it: a checkpoint added or removed, or a model
 * removed (its checkpoints too).
 *
 * @param seq the change's place in the database's order; increasing
 * @param model the model it concerns
 * @param step the checkpoint step; empty for a whole model
 * @param kind what happened
 */
public record CatalogChange(long seq, ModelId model, OptionalInt step, Kind kind) {

    /** What happened. */
    public enum Kind {
        CHECKPOINT_ADDED, CHECKPOINT_REMOVED, MODEL_REMOVED
    }

    public CatalogChange {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(kind, "kind");
        if ((kind == Kind.MODEL_REMOVED) != step.isEmpty()) {
            throw new IllegalArgumentException("a " + kind + " change must " + (kind == Kind.MODEL_REMOVED ? "not " : "")
                    + "name a step, got " + step);
        }
    }

    /** Whether it takes something away from what is served. */
    public boolean removal() {
        return switch (kind) {
            case CHECKPOINT_ADDED -> false;
            case CHECKPOINT_REMOVED, MODEL_REMOVED -> true;
        };
    }
}
