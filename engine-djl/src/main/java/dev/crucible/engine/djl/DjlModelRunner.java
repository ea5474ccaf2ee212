package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.types.Shape;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.LoraAdapter;
import dev.crucible.engine.spi.LoraTrainer;
import dev.crucible.engine.spi.LoraTrainingSpec;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.RunnerKvCache;
import dev.crucible.engine.spi.RunnerResources;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.peft.LoraConfig;
import dev.crucible.hf.peft.LoraTarget;
import dev.crucible.hf.peft.LoraWeights;
import dev.crucible.hf.safetensors.SafetensorsReader;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * A model loaded into PyTorch: owns the weight mapping, the NDManager holding the weights and one sub-manager per
 * cache and per adapter. Every method takes the runner's lock, so forwards are serialised and a cache or adapter
 * cannot close mid-forward; only an adapter's files are read and checked before the lock is taken, so loading one
 * holds up forwards just while its arrays are made. Each forward runs in an {@link NDScope} that frees its
 * intermediates; caches advance only after the whole batch succeeded.
 */
final class DjlModelRunner implements ModelRunner {

    private final ModelConfig config;
    private final SafetensorsReader reader;
    private final NDManager manager;
    private final DjlTransformer transformer;
    private final DjlThreads threads;
    private final RunnerResources resources = new RunnerResources(this);
    private final Set<DjlLoraTrainer> trainers = Collections.newSetFromMap(new IdentityHashMap<>());

    DjlModelRunner(ModelConfig config, SafetensorsReader reader, NDManager manager, DjlWeights weights,
            DjlThreads threads) {
        this.config = config;
        this.threads = threads;
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
        return resources.addCache(capacityTokens, config, () -> new DjlKvCache(resources, manager.newSubManager(),
                capacityTokens, config.numHiddenLayers(), config.numKeyValueHeads(), config.headDim()));
    }

    @Override
    public synchronized List<SequenceLogits> forward(List<SequenceInput> batch) {
        resources.requireOpen();
        DjlPackedBatch packed = DjlPackedBatch.of(batch, this);
        threads.useForTokens(packed.tokens().length);
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

    @Override
    public synchronized void copyPrefix(KvCache from, KvCache to, int tokens) {
        RunnerKvCache.checkPrefixCopy(from, to, tokens, resources);
        DjlKvCache source = (DjlKvCache) from;
        DjlKvCache target = (DjlKvCache) to;
        try (NDScope scope = new NDScope()) {
            scope.suppressNotUsedWarning();
            target.reserve(tokens);
            for (int layer = 0; layer < config.numHiddenLayers(); layer++) {
                target.write(layer, 0, source.keys(layer, tokens), source.values(layer, tokens));
            }
        } catch (ai.djl.engine.EngineException e) {
            throw new EngineException(EngineException.Reason.FORWARD_FAILED, "prefix copy failed: " + e.getMessage(),
                    e);
        }
        target.advance(tokens);
    }

    @Override
    public LoraAdapter loadAdapter(Path peftFolder) {
        resources.requireOpen();
        LoraWeights read = LoraAdapter.readPeftFolder(peftFolder, config);
        synchronized (this) {
            resources.requireOpen();
            NDManager own = manager.newSubManager();
            int layers = config.numHiddenLayers();
            NDArray[][] a = new NDArray[layers][LoraTarget.values().length];
            NDArray[][] b = new NDArray[layers][LoraTarget.values().length];
            for (int layer = 0; layer < layers; layer++) {
                for (LoraTarget t : read.config().targets()) {
                    if (!t.inLayer(layer)) {
                        continue;
                    }
                    a[layer][t.ordinal()] = own.create(read.a()[layer][t.ordinal()],
                            new Shape(read.config().r(), t.inFeatures(config)));
                    b[layer][t.ordinal()] = own.create(read.scaledB(layer, t),
                            new Shape(t.outFeatures(config), read.config().r()));
                }
            }
            return resources.add(new DjlLoraAdapter(resources, own, read.config(), a, b));
        }
    }

    @Override
    public LoraTrainer newTrainer(LoraTrainingSpec spec) {
        resources.requireOpen();
        LoraWeights start = spec.startFrom().map(folder -> LoraAdapter.readPeftFolder(folder, config)).orElse(null);
        if (start != null && !sameShape(start.config(), spec.lora())) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, "cannot continue training from "
                    + spec.startFrom().get() + ": its adapter (r=" + start.config().r() + ", lora_alpha="
                    + start.config().loraAlpha() + ", targets " + start.config().targets() + ") differs from the "
                    + "trained one (r=" + spec.lora().r() + ", lora_alpha=" + spec.lora().loraAlpha() + ", targets "
                    + spec.lora().targets() + ")");
        }
        synchronized (this) {
            resources.requireOpen();
            DjlLoraTrainer trainer = new DjlLoraTrainer(this, transformer, config, manager.newSubManager(), spec, start);
            trainers.add(trainer);
            return trainer;
        }
    }

    private static boolean sameShape(LoraConfig a, LoraConfig b) {
        return a.r() == b.r() && a.loraAlpha() == b.loraAlpha() && a.targets().equals(b.targets())
                && a.useRslora() == b.useRslora();
    }

    /** Frees one trainer (its {@link LoraTrainer#close()}); a no-op when it or the runner is already closed. */
    void release(DjlLoraTrainer trainer) {
        boolean mine;
        synchronized (this) {
            mine = trainers.remove(trainer);
        }
        if (mine) {
            trainer.free();
        }
    }

    @Override
    public synchronized void close() {
        if (!resources.close()) {
            return;
        }
        // A trainer's free waits for its running call, which reads the weights freed below.
        trainers.forEach(DjlLoraTrainer::free);
        trainers.clear();
        manager.close();
        reader.close();
    }

    /** What the runner has handed out, for the batch checks' {@code belongsTo}. */
    RunnerResources resources() {
        return resources;
    }

    /** The engine's intra-op thread counts, which its trainers set too. */
    DjlThreads threads() {
        return threads;
    }
}
