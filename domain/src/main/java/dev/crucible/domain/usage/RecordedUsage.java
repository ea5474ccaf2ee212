package dev.crucible.domain.usage;

import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.util.UUID;

/**
 * What one call used, as the usage API counts it: a completion's tokens or a training operation's, and whom it counts
 * against: its entity, project, model and key, at the time it ended.
 */
public sealed interface RecordedUsage permits CompletionUsage, TrainingUsage {

    EntityName entity();

    UsageProject project();

    String model();

    UUID apiKeyId();

    Instant endedAt();
}
