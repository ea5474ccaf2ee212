package dev.crucible.runtime.generation;

import java.util.concurrent.CompletableFuture;

/**
 * A submitted request: its eventual result and a way to cancel it. Thread-safe.
 */
public final class GenerationHandle {

    private final CompletableFuture<GenerationResult> result = new CompletableFuture<>();
    private volatile boolean cancelRequested;
    private volatile Runnable onCancel = () -> { };

    GenerationHandle() {
    }

    /**
     * Completes with the result once every sequence finished, or exceptionally with the failure the listener also
     * received. Each call returns a new dependent future, so completing it does not affect the request.
     */
    public CompletableFuture<GenerationResult> result() {
        return result.copy();
    }

    /**
     * Asks the generator to stop the request at its next step: unfinished sequences end with finish reason
     * {@code abort} and the request completes normally; a request still waiting leaves the queue at once, freeing
     * its place. Idempotent; no effect once it finished.
     */
    public void cancel() {
        boolean first;
        synchronized (this) {
            first = !cancelRequested && !result.isDone();
            cancelRequested = true;
        }
        if (first) {
            onCancel.run();
        }
    }

    /** What the generator does on {@link #cancel()} besides marking the request; set before the handle is shared. */
    void onCancel(Runnable action) {
        this.onCancel = action;
    }

    boolean cancelRequested() {
        return cancelRequested;
    }

    void complete(GenerationResult value) {
        result.complete(value);
    }

    void fail(RuntimeException failure) {
        result.completeExceptionally(failure);
    }
}
