package dev.crucible.application.completion;

import dev.crucible.domain.completion.StoredCompletion;

/**
 * Keeps a completion whose request said {@code store: true}. Returns at once and never blocks the answer: the write
 * happens later, and a completion that cannot be queued is dropped (counted and logged), never waited for.
 * Thread-safe.
 */
public interface KeepCompletionUseCase {

    /** Queues {@code completion} for storing; false when it was dropped (the queue full, or the server stopping). */
    boolean keep(StoredCompletion completion);
}
