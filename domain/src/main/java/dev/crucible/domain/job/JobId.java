package dev.crucible.domain.job;

import java.util.Objects;
import java.util.UUID;

/** Identity of a training job (RL and SFT share one id space). */
public record JobId(UUID value) {

    public JobId {
        Objects.requireNonNull(value, "value");
    }

    public static JobId random() {
        return new JobId(UUID.randomUUID());
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
