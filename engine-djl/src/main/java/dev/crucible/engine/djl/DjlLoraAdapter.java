package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.crucible.engine.spi.LoraAdapter;
import dev.crucible.engine.spi.RunnerResource;
import dev.crucible.engine.spi.RunnerResources;
import dev.crucible.hf.peft.LoraConfig;
import dev.crucible.hf.peft.LoraTarget;

/**
 * A LoRA adapter's matrices as NDArrays in the runner's own sub-manager: per layer and target {@code A [r, in]} and
 * {@code B [out, r]} with the scaling already multiplied into {@code B}, or null for a target the adapter leaves alone.
 * Read by the runner's serialised forward; closed through the runner, like a cache.
 */
final class DjlLoraAdapter extends RunnerResource implements LoraAdapter, DjlLoraMatrices {

    private final NDManager manager;
    private final LoraConfig config;
    private final NDArray[][] a;
    private final NDArray[][] scaledB;

    DjlLoraAdapter(RunnerResources owner, NDManager manager, LoraConfig config, NDArray[][] a, NDArray[][] scaledB) {
        super(owner);
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

    /** Frees the arrays. */
    @Override
    protected void free() {
        manager.close();
    }
}
