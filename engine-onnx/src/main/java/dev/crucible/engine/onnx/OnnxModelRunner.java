package dev.crucible.engine.onnx;

import ai.onnxruntime.OrtException;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.LoraAdapter;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.RunnerKvCache;
import dev.crucible.engine.spi.RunnerResources;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.peft.LoraWeights;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A model loaded into ONNX Runtime: owns the session and one key/value pool that every cache is a row of, so all
 * decoding sequences of a batch run together and each weight is read once per step for all of them. Every method takes
 * the runner's lock, so forwards are serialised and a cache cannot close mid-forward; caches advance only after every
 * run of a batch succeeded.
 */
final class OnnxModelRunner implements ModelRunner {

    /** {@code false} skips the warm-up at load. */
    static final String WARM_UP_PROPERTY = "crucible.onnx.warmUp";
    private static final int WARM_UP_PROMPT = 64;
    private static final int WARM_UP_STEPS = 8;

    private final ModelConfig config;
    private final OnnxRuntime runtime;
    private final ModelFolder model;
    private final OnnxPrecision precision;
    private final OnnxKvPool pool;
    private final RunnerResources resources = new RunnerResources(this);
    private final boolean warmedUp;
    private OnnxSession session;

    OnnxModelRunner(ModelConfig config, OnnxRuntime runtime, ModelFolder model, OnnxPrecision precision,
            OnnxSession session) {
        this.config = config;
        this.runtime = runtime;
        this.model = model;
        this.precision = precision;
        this.session = session;
        this.pool = new OnnxKvPool(config.numHiddenLayers(), config.numKeyValueHeads(), config.headDim(),
                config.maxPositionEmbeddings());
        this.warmedUp = !"false".equalsIgnoreCase(System.getProperty(WARM_UP_PROPERTY, "true").strip())
                && warmUp();
    }

    /**
     * Runs, at load, what a first request would: a {@value #WARM_UP_PROMPT}-token prefill and
     * {@value #WARM_UP_STEPS} decode steps of one sequence alone and of two together, on scratch caches that
     * are freed after (the pool shrunk back). So ONNX Runtime's first runs of each shape (its arena growing, kernels
     * choosing their paths, the file-mapped embedding rows paged in) and the JIT compilation of this engine's Java
     * path happen before the model serves, not in its first requests. {@code -Dcrucible.onnx.warmUp=false} skips it,
     * and then the server does not warm the request's way either ({@link #warmedUp()}).
     *
     * @return whether it ran (a model too short for its prompt is not warmed)
     */
    private boolean warmUp() {
        int[] prompt = new int[Math.min(WARM_UP_PROMPT, config.maxPositionEmbeddings() - 2 * WARM_UP_STEPS)];
        if (prompt.length < 1) {
            return false;
        }
        for (int i = 0; i < prompt.length; i++) {
            prompt[i] = (int) ((i * 7919L) % config.vocabSize());
        }
        int capacity = prompt.length + 2 * WARM_UP_STEPS;
        try (KvCache first = newCache(capacity); KvCache second = newCache(capacity)) {
            forward(List.of(SequenceInput.of(first, prompt)));
            forward(List.of(SequenceInput.of(second, prompt)));
            for (int step = 0; step < WARM_UP_STEPS; step++) {
                forward(List.of(SequenceInput.of(first, prompt[step])));
                forward(List.of(SequenceInput.of(first, prompt[step]), SequenceInput.of(second, prompt[step])));
            }
        }
        // the pool gives back the scratch rows; ONNX Runtime's arena keeps what the first requests will need
        pool.shrink();
        LazyZeroedMemory.releaseFreed();
        return true;
    }

    @Override
    public boolean warmedUp() {
        return warmedUp;
    }

    /** Positions the rotary tables must cover: the longest sequence plus the pool's spare position. */
    static int ropePositions(ModelConfig config) {
        return config.maxPositionEmbeddings() + 1;
    }

    @Override
    public ModelConfig config() {
        return config;
    }

    @Override
    public synchronized KvCache newCache(int capacityTokens) {
        return resources.addCache(capacityTokens, config, () -> {
            OnnxKvCache cache = new OnnxKvCache(resources, pool, capacityTokens);
            cache.attach();
            return cache;
        });
    }

    @Override
    public synchronized List<SequenceLogits> forward(List<SequenceInput> batch) {
        return forward(batch, false);
    }

    /** As {@link #forward(List)}; with {@code shrinkArena} ONNX Runtime frees its arena's unused regions after. */
    private List<SequenceLogits> forward(List<SequenceInput> batch, boolean shrinkArena) {
        resources.requireOpen();
        List<OnnxKvCache> held = RunnerKvCache.checkBatch(batch, OnnxKvCache.class, resources, config.vocabSize());
        OnnxBatchCheck.adapters(batch, this);
        int longest = 0;
        for (int i = 0; i < batch.size(); i++) {
            longest = Math.max(longest, held.get(i).length() + batch.get(i).length());
        }
        pool.ensureLength(longest);
        List<List<float[]>> rows = new ArrayList<>(Collections.nCopies(batch.size(), null));
        try {
            for (OnnxRun run : OnnxRun.plan(batch, held, !session.appliesAdapters())) {
                float[][] logits = session.run(run, shrinkArena);
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
            out.add(new SequenceLogits(all ? own.getLast().clone() : own.getLast(),
                    all ? List.copyOf(own) : List.of()));
        }
        return out;
    }

    /**
     * Gives back what a burst grew the runner to: ONNX Runtime's arena regions that no tensor uses (freed after one
     * decode step of a scratch cache, the smallest run, with arena shrinkage asked for), the key/value pool's rows and
     * positions past the caches still held, and the freed C heap.
     */
    @Override
    public synchronized void releaseIdleMemory() {
        if (resources.isClosed()) {
            return;
        }
        try (KvCache scratch = newCache(1)) {
            forward(List.of(SequenceInput.of(scratch, 0)), true);
        }
        pool.shrink();
        LazyZeroedMemory.releaseFreed();
    }

    @Override
    public synchronized void copyPrefix(KvCache from, KvCache to, int tokens) {
        RunnerKvCache.checkPrefixCopy(from, to, tokens, resources);
        OnnxKvCache target = (OnnxKvCache) to;
        pool.copyPrefix(((OnnxKvCache) from).slot(), target.slot(), tokens);
        target.advance(tokens);
    }

    /**
     * Keeps the prefix on {@code from}'s own row: nothing is copied, so keeping a long prompt for the prefix cache
     * costs no time in the step that finished it and no memory until {@code from} is freed (then the row is the kept
     * prefix's).
     */
    @Override
    public synchronized KvCache keepPrefix(KvCache from, int tokens) {
        RunnerKvCache.checkKeptPrefix(from, tokens, resources);
        OnnxKvCache source = (OnnxKvCache) from;
        OnnxKvCache kept = resources.addCache(tokens, config, () -> {
            OnnxKvCache cache = new OnnxKvCache(resources, pool, tokens);
            cache.keep(source);
            return cache;
        });
        kept.advance(tokens);
        return kept;
    }

    /**
     * Reads the PEFT folder, then makes the adapter. The first adapter switches the runner to the decoder graph with
     * LoRA inputs: its session is built outside the lock (that takes about as long as loading the model did, and
     * forwards go on meanwhile on the base session), then replaces the base one; from then on base-model sequences run
     * through it with rank-1 zero adapters.
     */
    @Override
    public LoraAdapter loadAdapter(Path peftFolder) {
        resources.requireOpen();
        LoraWeights read = LoraAdapter.readPeftFolder(peftFolder, config);
        OnnxSession built = appliesAdapters() ? null : OnnxModelLoader.session(runtime, model, true, precision);
        synchronized (this) {
            if (!resources.isClosed() && !session.appliesAdapters()) {
                session.close();
                session = built;
                built = null;
            }
            if (built != null) {
                // The runner closed, or another thread switched first, while this session was built.
                built.close();
            }
            resources.requireOpen();
            try {
                return resources.add(OnnxLoraAdapter.of(resources, runtime.env(), read, config));
            } catch (OrtException e) {
                throw new EngineException(EngineException.Reason.RUNTIME_UNAVAILABLE, "cannot load adapter "
                        + peftFolder + ": " + e.getMessage(), e);
            }
        }
    }

    private synchronized boolean appliesAdapters() {
        return session.appliesAdapters();
    }

    @Override
    public synchronized void close() {
        if (!resources.close()) {
            return;
        }
        pool.close();
        session.close();
    }

    /** What the runner has handed out, for the batch checks' {@code belongsTo}. */
    RunnerResources resources() {
        return resources;
    }
}
