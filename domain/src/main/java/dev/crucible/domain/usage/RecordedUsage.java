package dev.crucible.domain.usage;

/** What one call used, as the usage API counts it: a completion's tokens or a training operation's. */
public sealed interface RecordedUsage permits CompletionUsage, TrainingUsage {
}
