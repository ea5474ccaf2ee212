package dev.crucible.engine.onnx;

import ai.onnxruntime.OrtException;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.LoraAdapter;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.folder.ModelFolder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A model loaded into ONNX Runtime: owns the session and the key/value pools, one pool per length class of cache
 * (capacity rounded up to a power of two, at most {@code max_position_embeddings}), so caches made alike share buffers
 * and decode in one run. Every method takes the runner's lock, so forwards are serialised and a cache cannot close
 * mid-forward; caches advance only after every run of a batch succeeded.
 */
final class OnnxModelRunner implements ModelRunner {

    private static final int SMALLEST_CLASS = 16;

    private final ModelConfig config;
    private final OnnxRuntime runtime;
    private final ModelFolder model;
    private final Map<Integer, OnnxKvPool> pools = new HashMap<>();
    private final Set<OnnxKvCache> caches = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<OnnxLoraAdapter> adapters = Collections.newSetFromMap(new IdentityHashMap<>());
    private OnnxSession session;
    private volatile boolean closed;

    OnnxModelRunner(ModelConfig config, OnnxRuntime runtime, ModelFolder model, OnnxSession session) {
        this.config = config;
        this.runtime = runtime;
        this.model = model;
        this.session = session;
    }

    /** Positions the rotary tables must cover: every class's size plus the spare position. */
    static int ropePositions(ModelConfig config) {
        return config.maxPositionEmbeddings() + 1;
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
        int lengthClass = Math.min(config.maxPositionEmbeddings(),
                Math.max(SMALLEST_CLASS, Integer.highestOneBit(capacityTokens - 1) << 1));
        OnnxKvPool pool = pools.computeIfAbsent(lengthClass, c -> new OnnxKvPool(config.numHiddenLayers(),
                config.numKeyValueHeads(), config.headDim(), c + 1));
        OnnxKvCache cache = new OnnxKvCache(this, pool, capacityTokens);
        cache.attach();
        caches.add(cache);
        return cache;
    }

    @Override
    public synchronized List<SequenceLogits> forward(List<SequenceInput> batch) {
        requireOpen();
        List<OnnxKvCache> held = OnnxBatchCheck.caches(batch, this, config.vocabSize());
        OnnxBatchCheck.adapters(batch, this);
        List<List<float[]>> rows = new ArrayList<>(Collections.nCopies(batch.size(), null));
        try {
            for (OnnxRun run : OnnxRun.plan(batch, held)) {
                float[][] logits = session.run(run);
                for (int m = 0, row = 0; m < run.members().length; m++) {
                    rows.set(run.members()[m], Arrays.asList(logits).subList(row, row + run.counts()[m]));
                    row += run.counts()[m];
                }
            }
        } catch (OrtException e) {
            throw new EngineException(EngineException.Reason.FORWARD_FAILED, "forward pass failed: "
                    + e.getMessage(), e);
        }
        List<SequenceLogits> out = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            held.get(i).advance(batch.get(i).length());
            List<float[]> own = rows.get(i);
            boolean all = batch.get(i).allPositions();
            out.add(new SequenceLogits(all ? own.getLast().clone() : own.getLast(), all ? List.copyOf(own) : List.of()));
        }
        return out;
    }

    /**
     * Reads the PEFT folder (outside the lock), then makes the adapter. The first adapter switches the runner to the
     * decoder graph with LoRA inputs: a new session replaces the base one (this takes as long as loading the model
     * did, once), and from then on base-model sequences run through it with rank-1 zero adapters.
     */
    @Override
    public LoraAdapter loadAdapter(Path peftFolder) {
        requireOpen();
        OnnxLoraWeights read = OnnxLoraWeights.read(peftFolder, config);
        synchronized (this) {
            requireOpen();
            if (!session.appliesAdapters()) {
                OnnxSession withLora = OnnxModelLoader.session(runtime, model, true);
                session.close();
                session = withLora;
            }
            try {
                OnnxLoraAdapter adapter = OnnxLoraAdapter.of(this, runtime.env(), read, config);
                adapters.add(adapter);
                return adapter;
            } catch (OrtException e) {
                throw new EngineException(EngineException.Reason.RUNTIME_UNAVAILABLE, "cannot load adapter "
                        + peftFolder + ": " + e.getMessage(), e);
            }
        }
    }

    /** Frees one adapter (its {@link LoraAdapter#close()}); a no-op when it or the runner is already closed. */
    synchronized void release(OnnxLoraAdapter adapter) {
        if (adapters.remove(adapter)) {
            adapter.free();
        }
    }

    /** Closes one cache (its {@link KvCache#close()}); a no-op when it or the runner is already closed. */
    synchronized void release(OnnxKvCache cache) {
        if (caches.remove(cache) && cache.free()) {
            OnnxKvPool pool = cache.pool();
            pools.values().remove(pool);
            pool.close();
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        caches.forEach(OnnxKvCache::free);
        caches.clear();
        adapters.forEach(OnnxLoraAdapter::free);
        adapters.clear();
        pools.values().forEach(OnnxKvPool::close);
        pools.clear();
        session.close();
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("model runner is closed");
        }
    }
}
