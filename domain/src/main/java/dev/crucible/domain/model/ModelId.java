package dev.crucible.domain.model;

import java.util.Objects;
import java.util.UUID;

/** Identity of a trained model. */
public record ModelId(UUID value) {

    public ModelId {
        Objects.requireNonNull(value, "value");
    }

    public static ModelId random() {
        return new ModelId(UUID.randomUUID());
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
