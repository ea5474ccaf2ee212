package dev.crucible.application.usage;

import dev.crucible.domain.usage.CompletionUsage;

/**
 * Takes each finished completion's usage. Called on the generator's thread, so {@link #record} returns at once and
 * never throws: writing happens elsewhere. {@link #NONE} keeps nothing (for use cases built without a ledger).
 */
public interface UsageRecorder {

    UsageRecorder NONE = usage -> {
    };

    void record(CompletionUsage usage);
}
