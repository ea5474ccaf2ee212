package dev.crucible.application.primitives;

import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import java.util.Optional;
import java.util.UUID;

/**
 * Sampling sessions, answered directly: one is made on a served base model alone, or on a saved sampler state of one
 * of the caller's runs ({@code tinker://<run>/sampler_weights/<name>}); and read back by id.
 */
public interface SamplersUseCase {

    Outcome<SamplingSession> create(Caller caller, Optional<UUID> session, Optional<String> baseModel,
            Optional<String> modelPath);

    Outcome<SamplingSession> find(Caller caller, String samplerId);
}
