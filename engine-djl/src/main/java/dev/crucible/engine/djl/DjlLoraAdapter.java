package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.crucible.engine.spi.LoraAdapter;
import dev.crucible.hf.peft.LoraConfig;
import dev.crucible.hf.peft.LoraTarget;

/**
 * A LoRA adapter's matrices as NDArrays in the runner's own sub-manager: per layer and target {@code A [r, in]} and
 * {@code B [out, r]} with the scaling already multiplied into {@code B}, or null for a target the adapter leaves alone.
 * Read by the runner's serialised forward; closed through the runner, like a cache.
 */
final class DjlLoraAdapter implements LoraAdapter, DjlLoraMatrices {

    private final DjlModelRunner owner;
    private final NDManager manager;
    private final LoraConfig config;
    private final NDArray[][] a;
    private final NDArray[][] scaledB;
    private volatile boolean closed;

    DjlLoraAdapter(DjlModelRunner owner, NDManager manager, LoraConfig config, NDArray[][] a, NDArray[][] scaledB) {
        this.owner = owner;
        this.manager = manager;
        this.config = config;
        this.a = a;
        this.scaledB = scaledB;
    }

    @Override
    public int rank() {
        return config.r();
    }

    @Override
    public double scaling() {
        return config.scaling();
    }

    @Override
    public void close() {
        owner.release(this);
    }

    boolean belongsTo(DjlModelRunner runner) {
        return owner == runner;
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public boolean adapts(LoraTarget target) {
        return config.targets().contains(target);
    }

    @Override
    public NDArray a(int layer, LoraTarget target) {
        return a[layer][target.ordinal()];
    }

    @Override
    public NDArray scaledB(int layer, LoraTarget target) {
        return scaledB[layer][target.ordinal()];
    }

    /** Frees the arrays; called by the owner under its lock. */
    void free() {
        closed = true;
        manager.close();
    }
}
