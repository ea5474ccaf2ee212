package dev.crucible.application.primitives;

import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.kernel.invariant.NonNull;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * What a sampling session samples: a served base model, alone or with the adapter of a run's checkpoint.
 *
 * @param run       the run whose adapter it samples; empty for the base model alone
 * @param step      that run's checkpoint step; present exactly when the adapter is a stored checkpoint
 * @param modelPath the {@code tinker://} path it was created from, if any
 */
public record SamplingSession(UUID id, EntityName entity, Optional<UUID> session, String baseModel,
        Optional<ModelId> run, OptionalInt step, Optional<String> modelPath, Instant createdAt) {

    public SamplingSession {
        NonNull.components(SamplingSession.class, id, entity, session, baseModel, run, step, modelPath, createdAt);
        if (step.isPresent() && run.isEmpty()) {
            throw new IllegalArgumentException("a checkpoint step needs its run");
        }
    }
}
