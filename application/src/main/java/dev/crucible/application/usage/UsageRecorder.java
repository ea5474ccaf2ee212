package dev.crucible.application.usage;

import dev.crucible.domain.usage.RecordedUsage;

/**
 * Takes each finished completion's or training operation's usage. Called on the generator's (or the run's) thread,
 * so {@link #record} returns at once and never throws: writing happens elsewhere. {@link #NONE} keeps nothing (for use cases built without a ledger).
 */
public interface UsageRecorder {

    UsageRecorder NONE = usage -> {
    };

    void record(RecordedUsage usage);
}
