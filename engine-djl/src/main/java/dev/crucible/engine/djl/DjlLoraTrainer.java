package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import dev.crucible.engine.spi.AdamWStep;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.LoraTrainer;
import dev.crucible.engine.spi.LoraTrainingSpec;
import dev.crucible.engine.spi.TokenObjective;
import dev.crucible.engine.spi.TrainingBatchResult;
import dev.crucible.engine.spi.TrainingSequence;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.peft.LoraConfig;
import dev.crucible.hf.peft.LoraTarget;
import dev.crucible.hf.peft.LoraWeights;
import dev.crucible.hf.peft.PeftAdapterWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * A LoRA adapter trained with PyTorch's autograd: the runner's frozen weights plus, per layer and target (the
 * unembedding's once, at index 0), trainable
 * {@code A [r, in]} and {@code B [out, r]} (the scaling is applied in the forward, so gradients are those of PEFT's
 * parameters) whose gradients accumulate until {@link DjlAdamW} takes a step; its state is saved beside the PEFT
 * files ({@link DjlOptimizerFile}). Each call runs in an {@link NDScope}, so intermediates are freed when it returns;
 * only parameters, moments and accumulated gradients outlive a call. Calls are serialised on the trainer, and the
 * runner's close waits for a running call.
 */
final class DjlLoraTrainer implements LoraTrainer {

    private final DjlModelRunner owner;
    private final DjlTransformer transformer;
    private final ModelConfig model;
    private final LoraTrainingSpec spec;
    private final NDManager manager;
    private final List<DjlLoraParam> params = new ArrayList<>();
    private final DjlLoraParam[][] aParams;
    private final DjlLoraParam[][] bParams;
    private final DjlAdamW optimiser;
    private DjlTrainingMemory memory = DjlTrainingMemory.fromSystemProperties();
    private boolean closed;

    DjlLoraTrainer(DjlModelRunner owner, DjlTransformer transformer, ModelConfig model, NDManager manager,
            LoraTrainingSpec spec, LoraWeights start) {
        this.owner = owner;
        this.transformer = transformer;
        this.model = model;
        this.spec = spec;
        this.manager = manager;
        LoraConfig lora = spec.lora();
        this.aParams = new DjlLoraParam[model.numHiddenLayers()][LoraTarget.values().length];
        this.bParams = new DjlLoraParam[model.numHiddenLayers()][LoraTarget.values().length];
        Random rng = new Random(spec.seed());
        for (int layer = 0; layer < model.numHiddenLayers(); layer++) {
            for (LoraTarget t : lora.targets()) {
                if (!t.inLayer(layer)) {
                    continue;
                }
                int in = t.inFeatures(model);
                int out = t.outFeatures(model);
                float[] a = start != null ? start.a()[layer][t.ordinal()] : kaimingUniform(rng, lora.r() * in, in);
                float[] b = start != null ? start.b()[layer][t.ordinal()] : new float[out * lora.r()];
                aParams[layer][t.ordinal()] = add(new DjlLoraParam(layer, t, true,
                        manager.create(a, new Shape(lora.r(), in))));
                bParams[layer][t.ordinal()] = add(new DjlLoraParam(layer, t, false,
                        manager.create(b, new Shape(out, lora.r()))));
            }
        }
        this.optimiser = new DjlAdamW(params);
        spec.startFrom().map(folder -> folder.resolve(DjlOptimizerFile.NAME)).filter(Files::isRegularFile)
                .map(file -> DjlOptimizerFile.read(file, params, manager))
                .ifPresent(saved -> optimiser.resume(saved.steps(), saved.beta1(), saved.beta2()));
    }

    /** PEFT's initialisation of {@code A}: Kaiming-uniform with a = sqrt(5), i.e. {@code U(-1/sqrt(in), 1/sqrt(in))}. */
    private static float[] kaimingUniform(Random rng, int size, int in) {
        double bound = 1.0 / Math.sqrt(in);
        float[] values = new float[size];
        for (int i = 0; i < size; i++) {
            values[i] = (float) (bound * (2 * rng.nextDouble() - 1));
        }
        return values;
    }

    private DjlLoraParam add(DjlLoraParam p) {
        params.add(p);
        return p;
    }

    @Override
    public synchronized TrainingBatchResult accumulate(List<TrainingSequence> batch, TokenObjective objective) {
        requireOpen();
        owner.threads().useConfigured();
        DjlTrainingBatch packed = pack(batch);
        boolean[] graded = packed.graded(objective);
        try (NDScope scope = new NDScope();
                GradientCollector collector = manager.getEngine().newGradientCollector()) {
            scope.suppressNotUsedWarning();
            DjlLoraBatch lora = adapter(true);
            DjlTransformer.Stack stack = transformer.training(packed.tokens(), packed.lengths(), manager);
            int[] attachedRows = where(graded, true);
            boolean backward = attachedRows.length > 0;
            // The first layers are checkpointed, the last ones (as many as the memory settings let keep their
            // activations) run from a leaf of the checkpointed part's output with their graph kept.
            int checkpointed = stack.layers() - memory.keptLayers(model, packed.tokens().length, packed.longest());
            DjlCheckpoints.Kept kept = DjlCheckpoints.forward(stack, lora, checkpointed,
                    backward ? memory.projectionLayers(model, packed.tokens().length, packed.longest()) : 0);
            NDArray bottom = kept.inputs()[checkpointed];
            if (checkpointed > 0 && checkpointed < stack.layers() && backward) {
                bottom.setRequiresGradient(true);
            }
            NDArray top = stack.hidden(checkpointed, bottom, lora);
            // The loss's side runs from a leaf copy of the last hidden states: its gradient gathers there, chunk by
            // chunk, and only then goes down the decoder, in one backward (or one per layer, checkpointed).
            NDArray leaf = top.stopGradient();
            leaf.setRequiresGradient(backward);
            boolean headAdapted = spec.lora().targets().contains(LoraTarget.LM_HEAD);
            int rows = packed.rows().length;
            float[] logprobs = new float[rows];
            float[] entropies = objective.measuresEntropy() ? new float[rows] : null;
            // Each graded target's log-probability depends on its own row of hidden states only, so without an adapted
            // head a unit backward per chunk leaves in the leaf's gradient each row's own gradient, which the
            // objective's coefficients then scale. An adapted head's matrices are shared by all rows: its chunks are
            // scored again once the coefficients are known, backpropagating the weighted sum.
            loss().score(leaf, packed, attachedRows, lora, logprobs, entropies, headAdapted ? null : collector, null);
            // Targets the loss cannot differentiate are scored from detached hidden states: the unembedding and
            // log-softmax of those rows (a prompt's, under a zero weight) then cost a forward and no backward.
            loss().score(top.stopGradient(), packed, where(graded, false), lora, logprobs, entropies, null, null);
            List<float[]> perSequence = packed.split(logprobs);
            TokenObjective.Evaluation evaluation = objective.evaluate(perSequence);
            float[] coefficients = packed.flatten(evaluation.gradients());
            if (backward) {
                NDArray gradient;
                if (headAdapted) {
                    loss().score(leaf, packed, attachedRows, lora, new float[rows], null, collector, coefficients);
                    gradient = leaf.getGradient();
                } else {
                    gradient = leaf.getGradient().mul(manager.create(packed.perRow(coefficients, attachedRows),
                            new Shape(packed.tokens().length, 1)));
                }
                if (checkpointed < stack.layers()) {
                    collector.backward(DjlOps.inner(top, gradient));
                    gradient = checkpointed > 0 ? bottom.getGradient() : null;
                }
                if (checkpointed > 0) {
                    DjlCheckpoints.backward(stack, kept, gradient, lora, collector);
                }
                for (DjlLoraParam p : params) {
                    NDArray g = p.value.getGradient();
                    if (p.grad == null) {
                        p.grad = g.duplicate();
                        NDScope.unregister(p.grad);
                    } else {
                        p.grad.addi(g);
                    }
                    g.subi(g);
                }
            }
            return new TrainingBatchResult(evaluation.loss(), perSequence,
                    entropies == null ? List.of() : packed.split(entropies));
        } catch (ai.djl.engine.EngineException e) {
            throw new EngineException(EngineException.Reason.FORWARD_FAILED, "training step failed: " + e.getMessage(),
                    e);
        }
    }

    @Override
    public synchronized List<float[]> logprobs(List<TrainingSequence> batch, boolean withAdapter) {
        requireOpen();
        owner.threads().useConfigured();
        DjlTrainingBatch packed = pack(batch);
        try (NDScope scope = new NDScope()) {
            scope.suppressNotUsedWarning();
            DjlLoraBatch lora = adapter(withAdapter);
            // No backward follows, so the checkpointed forward keeps nothing but each layer's output.
            DjlTransformer.Stack stack = transformer.training(packed.tokens(), packed.lengths(), manager);
            NDArray top = DjlCheckpoints.forward(stack, lora, stack.layers(), 0).inputs()[stack.layers()];
            float[] logprobs = new float[packed.rows().length];
            loss().score(top, packed, IntStream.range(0, logprobs.length).toArray(), lora, logprobs,
                    null, null, null);
            return packed.split(logprobs);
        } catch (ai.djl.engine.EngineException e) {
            throw new EngineException(EngineException.Reason.FORWARD_FAILED, "forward pass failed: " + e.getMessage(), e);
        }
    }

    /** The loss's chunked scoring at the trainer's present memory settings. */
    private DjlChunkedLoss loss() {
        return new DjlChunkedLoss(transformer, manager, memory);
    }

    /** The adapter as the forward applies it, or none for the base model. */
    private DjlLoraBatch adapter(boolean withAdapter) {
        return withAdapter ? DjlLoraBatch.whole(view(manager.create((float) spec.lora().scaling())), manager)
                : DjlLoraBatch.NONE;
    }

    /** The indices {@code i} with {@code flags[i] == value}, in order. */
    private static int[] where(boolean[] flags, boolean value) {
        return IntStream.range(0, flags.length).filter(i -> flags[i] == value).toArray();
    }

    /**
     * The parameters as the forward uses them: {@code A}, and {@code B} times the scaling (part of the graph). The
     * scaling is an array of the call's scope rather than {@code mul(float)}: DJL wraps a Java buffer without copying
     * and lets it be collected once the temporary is closed, while autograd keeps the factor for the backward pass,
     * which then read freed memory whenever a garbage collection fell between forward and backward.
     */
    private DjlLoraMatrices view(NDArray scaling) {
        return new DjlLoraMatrices() {
            @Override
            public boolean adapts(LoraTarget target) {
                return spec.lora().targets().contains(target);
            }

            @Override
            public NDArray a(int layer, LoraTarget target) {
                DjlLoraParam p = aParams[layer][target.ordinal()];
                return p == null ? null : p.value;
            }

            @Override
            public NDArray scaledB(int layer, LoraTarget target) {
                DjlLoraParam p = bParams[layer][target.ordinal()];
                return p == null ? null : p.value.mul(scaling);
            }
        };
    }

    /** Changes how later calls trade time for memory (tests compare the settings on one trainer). */
    synchronized void useMemory(DjlTrainingMemory settings) {
        this.memory = settings;
    }

    @Override
    public double step(double learningRate, double maxGradNorm) {
        return step(spec.step(learningRate, maxGradNorm));
    }

    @Override
    public synchronized double step(AdamWStep settings) {
        requireOpen();
        owner.threads().useConfigured();
        return optimiser.step(settings);
    }

    /** The gradient accumulated since the last step for one matrix ({@code A} or {@code B}); zeros when none. */
    synchronized float[] gradient(int layer, LoraTarget target, boolean ofA) {
        requireOpen();
        DjlLoraParam p = (ofA ? aParams : bParams)[layer][target.ordinal()];
        return p.grad == null ? new float[(int) p.value.size()] : p.grad.toFloatArray();
    }

    @Override
    public synchronized int steps() {
        return optimiser.steps();
    }

    @Override
    public long trainableParameters() {
        long total = 0;
        for (LoraTarget t : spec.lora().targets()) {
            total += (long) spec.lora().r() * (t.inFeatures(model) + t.outFeatures(model)) * t.instances(model);
        }
        return total;
    }

    @Override
    public synchronized void save(Path peftFolder) {
        requireOpen();
        PeftAdapterWriter writer = new PeftAdapterWriter(spec.lora());
        for (int layer = 0; layer < model.numHiddenLayers(); layer++) {
            for (LoraTarget t : spec.lora().targets()) {
                if (!t.inLayer(layer)) {
                    continue;
                }
                writer.add(layer, t, aParams[layer][t.ordinal()].value.toFloatArray(),
                        bParams[layer][t.ordinal()].value.toFloatArray());
            }
        }
        try {
            writer.write(peftFolder);
            if (optimiser.steps() > 0) {
                DjlOptimizerFile.write(peftFolder, params, optimiser.steps(), optimiser.betas());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write adapter to " + peftFolder, e);
        }
    }

    @Override
    public void close() {
        owner.release(this);
    }

    /** Frees the parameters and optimiser state; called by the owner, waiting for a running call to end. */
    synchronized void free() {
        closed = true;
        manager.close();
    }

    boolean isClosed() {
        return closed;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("trainer is closed");
        }
    }

    private DjlTrainingBatch pack(List<TrainingSequence> batch) {
        if (batch == null || batch.isEmpty()) {
            throw new IllegalArgumentException("batch must hold at least one sequence, got none");
        }
        return DjlTrainingBatch.of(batch, model.vocabSize(), model.maxPositionEmbeddings());
    }
}
