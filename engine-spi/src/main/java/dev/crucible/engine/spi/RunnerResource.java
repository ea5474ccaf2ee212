package dev.crucible.engine.spi;

/**
 * Base of what an engine's model runner hands out and must free (its {@link KvCache}s and {@link LoraAdapter}s): the
 * resource belongs to one runner, is freed once, by its own {@link #close()} or by the runner's, whichever comes
 * first, and is refused afterwards by the runner's checks of a batch ({@link #belongsTo}, {@link #isClosed}). The
 * runner keeps its live resources in a {@link RunnerResources} and frees them under its own lock, so a resource
 * cannot be freed while a forward pass reads it.
 */
public abstract class RunnerResource {

    private final RunnerResources owner;
    private volatile boolean closed;

    /** A resource of the runner whose resources {@code owner} holds; the runner registers it there. */
    protected RunnerResource(RunnerResources owner) {
        this.owner = owner;
    }

    /** Frees the resource unless it or its runner is already closed; idempotent. */
    public final void close() {
        owner.release(this);
    }

    /** Whether this resource was handed out by the runner that keeps {@code resources}. */
    public final boolean belongsTo(RunnerResources resources) {
        return owner == resources;
    }

    public final boolean isClosed() {
        return closed;
    }

    /** Called once, by {@link RunnerResources} under the runner's lock. */
    final void freeOnce() {
        closed = true;
        free();
    }

    /** Gives the resource's memory back. */
    protected abstract void free();
}
