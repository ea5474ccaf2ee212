package dev.crucible.engine.djl;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.safetensors.SafetensorsReader;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * A model loaded into PyTorch: owns the weight mapping, the NDManager holding the weights and one sub-manager per
 * cache. Every method takes the runner's lock, so forwards are serialised and a cache cannot close mid-forward. Each
 * forward runs in an {@link NDScope} that frees its intermediates; caches advance only after the whole batch succeeded.
 */
final class DjlModelRunner implements ModelRunner {

    private final ModelConfig config;
    private final SafetensorsReader reader;
    private final NDManager manager;
    private final DjlTransformer transformer;
    private final Set<DjlKvCache> caches = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean closed;

    DjlModelRunner(ModelConfig config, SafetensorsReader reader, NDManager manager, DjlWeights weights) {
        this.config = config;
        this.reader = reader;
        this.manager = manager;
        this.transformer = new DjlTransformer(config, weights);
    }

    @Override
    public ModelConfig config() {
        return config;
    }

    @Override
    public synchronized KvCache newCache(int capacityTokens) {
        requireOpen();
        if (capacityTokens < 1 || capacityTokens > config.maxPositionEmbeddings()) {
            throw new IllegalArgumentException("capacityTokens must be in [1, " + config.maxPositionEmbeddings()
                    + "] (max_position_embeddings), got " + capacityTokens);
        }
        DjlKvCache cache = new DjlKvCache(this, manager.newSubManager(), capacityTokens, config.numHiddenLayers(),
                config.numKeyValueHeads(), config.headDim());
        caches.add(cache);
        return cache;
    }

    @Override
    public synchronized List<SequenceLogits> forward(List<SequenceInput> batch) {
        requireOpen();
        DjlPackedBatch packed = DjlPackedBatch.of(batch, this);
        List<SequenceLogits> logits;
        try (NDScope scope = new NDScope()) {
            scope.suppressNotUsedWarning();
            for (int i = 0; i < packed.size(); i++) {
                packed.caches().get(i).reserve(packed.caches().get(i).length() + packed.length(i));
            }
            logits = transformer.forward(packed, manager);
        } catch (ai.djl.engine.EngineException e) {
            // PyTorch's own errors (out of memory, a kernel failure) fail this batch only; caches were not advanced.
            throw new EngineException(EngineException.Reason.FORWARD_FAILED, "forward pass failed: " + e.getMessage(), e);
        }
        for (int i = 0; i < packed.size(); i++) {
            packed.caches().get(i).advance(packed.length(i));
        }
        return logits;
    }

    /** Closes one cache (its {@link KvCache#close()}); a no-op when it or the runner is already closed. */
    synchronized void release(DjlKvCache cache) {
        if (caches.remove(cache)) {
            cache.free();
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        caches.forEach(DjlKvCache::free);
        caches.clear();
        manager.close();
        reader.close();
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("model runner is closed");
        }
    }
}
