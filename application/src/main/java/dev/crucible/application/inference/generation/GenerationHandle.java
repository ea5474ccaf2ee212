package dev.crucible.application.inference.generation;

import java.util.concurrent.CompletableFuture;

/**
 * A submitted request: its eventual result and a way to cancel it. Thread-safe.
 */
public final class GenerationHandle {

    private final CompletableFuture<GenerationResult> result = new CompletableFuture<>();
    private volatile boolean cancelRequested;

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
     * {@code abort} and the request completes normally. Idempotent; no effect once it finished.
     */
    public void cancel() {
        cancelRequested = true;
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
