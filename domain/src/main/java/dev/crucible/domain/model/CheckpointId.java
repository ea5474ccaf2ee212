package dev.crucible.domain.model;

import java.util.Objects;
import java.util.UUID;

/** Identity of a checkpoint; also the cursor of checkpoint listings. */
public record CheckpointId(UUID value) {

    public CheckpointId {
        Objects.requireNonNull(value, "value");
    }

    public static CheckpointId random() {
        return new CheckpointId(UUID.randomUUID());
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
