package dev.crucible.domain.usage;

import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.kernel.invariant.NonNull;
import java.time.Instant;
import java.util.UUID;

/**
 * What one training operation (Tinker's {@code forward_backward} or {@code forward}) used, and whom it counts against.
 *
 * @param entity        the caller's entity (the tenant who sees this usage)
 * @param project       the project the run's model belongs to
 * @param model         the run's Crucible model address
 * @param apiKeyId      the id of the key that made the request
 * @param endedAt       when the operation finished
 * @param trainedTokens the positions a {@code forward_backward} trained (every datum's positions)
 * @param forwardTokens the positions a forward-only pass scored
 */
public record TrainingUsage(EntityName entity, UsageProject project, String model, UUID apiKeyId, Instant endedAt,
        long trainedTokens, long forwardTokens) implements RecordedUsage {

    public TrainingUsage {
        NonNull.components(TrainingUsage.class, entity, project, model, apiKeyId, endedAt);
        if (trainedTokens < 0 || forwardTokens < 0) {
            throw new IllegalArgumentException("token counts must be >= 0, got trained " + trainedTokens
                    + ", forward " + forwardTokens);
        }
    }
}
