package dev.crucible.engine.spi;

import dev.crucible.hf.config.ModelConfig;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The {@link RunnerResource}s one model runner has handed out and not yet freed. Adding, freeing and closing take the
 * runner's lock (the object given at construction), the lock its forward passes hold, so a cache or adapter is never
 * freed while a forward reads it; closing the runner frees what is left, and nothing is handed out after that. The
 * closed checks read a volatile flag and take no lock.
 */
public final class RunnerResources {

    private final Object runnerLock;
    private final Set<RunnerResource> live = Collections.newSetFromMap(new IdentityHashMap<>());
    private volatile boolean closed;

    /** Resources guarded by {@code runnerLock}, the monitor the runner's forward passes synchronise on. */
    public RunnerResources(Object runnerLock) {
        this.runnerLock = runnerLock;
    }

    /**
     * Registers a new resource.
     *
     * @throws IllegalStateException when the runner is closed
     */
    public <T extends RunnerResource> T add(T resource) {
        synchronized (runnerLock) {
            requireOpen();
            live.add(resource);
            return resource;
        }
    }

    /**
     * Makes and registers what a {@link ModelRunner#newCache} hands out: a closed runner and a capacity
     * {@link RunnerKvCache#checkCapacity} refuses are refused before {@code make} runs.
     *
     * @throws IllegalStateException when the runner is closed
     * @throws IllegalArgumentException for a capacity outside {@code [1, max_position_embeddings]}
     */
    public <T extends RunnerKvCache> T addCache(int capacityTokens, ModelConfig config, Supplier<T> make) {
        requireOpen();
        RunnerKvCache.checkCapacity(capacityTokens, config);
        return add(make.get());
    }

    /** Frees {@code resource} if it is still live; a no-op once it or the runner is closed. */
    void release(RunnerResource resource) {
        synchronized (runnerLock) {
            if (live.remove(resource)) {
                resource.freeOnce();
            }
        }
    }

    /** Frees every live resource; afterwards {@link #add} refuses. True the first time, false when already closed. */
    public boolean close() {
        synchronized (runnerLock) {
            if (closed) {
                return false;
            }
            closed = true;
            live.forEach(RunnerResource::freeOnce);
            live.clear();
            return true;
        }
    }

    /** Whether the runner is closed; callable without the runner's lock. */
    public boolean isClosed() {
        return closed;
    }

    /** @throws IllegalStateException when the runner is closed; callable without the runner's lock */
    public void requireOpen() {
        if (closed) {
            throw new IllegalStateException("model runner is closed");
        }
    }
}
