package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.LoraTrainer;
import dev.crucible.engine.spi.LoraTrainingSpec;
import dev.crucible.engine.spi.TokenObjective;
import dev.crucible.engine.spi.TrainingBatchResult;
import dev.crucible.engine.spi.TrainingSequence;
import dev.crucible.hf.ModelFormatException;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.peft.LoraConfig;
import dev.crucible.hf.peft.LoraTarget;
import dev.crucible.hf.peft.LoraWeights;
import dev.crucible.hf.peft.PeftAdapterWriter;
import dev.crucible.hf.safetensors.DType;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.safetensors.SafetensorsWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A LoRA adapter trained with PyTorch's autograd: the runner's frozen weights plus, per layer and target, trainable
 * {@code A [r, in]} and {@code B [out, r]} (the scaling is applied in the forward, so gradients are those of PEFT's
 * parameters), AdamW moments, and the gradients accumulated since the last step. Each call runs in an
 * {@link NDScope}, so intermediates are freed when it returns; only parameters, moments and accumulated gradients
 * outlive a call. Calls are serialised on the trainer, and the runner's close waits for a running call.
 */
final class DjlLoraTrainer implements LoraTrainer {

    /** One trainable matrix with its AdamW moments and accumulated gradient. */
    private static final class Param {
        final int layer;
        final LoraTarget target;
        final boolean isA;
        NDArray value;
        NDArray m;
        NDArray v;
        NDArray grad;

        Param(int layer, LoraTarget target, boolean isA, NDArray value) {
            this.layer = layer;
            this.target = target;
            this.isA = isA;
            this.value = value;
            this.m = value.zerosLike();
            this.v = value.zerosLike();
            value.setRequiresGradient(true);
        }
    }

    /** AdamW's state, saved beside the PEFT files; PEFT and other tools ignore it. */
    static final String OPTIMIZER_FILE = "optimizer.safetensors";
    private static final String STEP_KEY = "step";
    private static final String EXP_AVG = ".exp_avg";
    private static final String EXP_AVG_SQ = ".exp_avg_sq";

    private final DjlModelRunner owner;
    private final DjlTransformer transformer;
    private final ModelConfig model;
    private final LoraTrainingSpec spec;
    private final NDManager manager;
    private final List<Param> params = new ArrayList<>();
    private final Param[][] aParams;
    private final Param[][] bParams;
    private int steps;
    private boolean closed;

    DjlLoraTrainer(DjlModelRunner owner, DjlTransformer transformer, ModelConfig model, NDManager manager,
            LoraTrainingSpec spec, LoraWeights start) {
        this.owner = owner;
        this.transformer = transformer;
        this.model = model;
        this.spec = spec;
        this.manager = manager;
        LoraConfig lora = spec.lora();
        this.aParams = new Param[model.numHiddenLayers()][LoraTarget.values().length];
        this.bParams = new Param[model.numHiddenLayers()][LoraTarget.values().length];
        Random rng = new Random(spec.seed());
        for (int layer = 0; layer < model.numHiddenLayers(); layer++) {
            for (LoraTarget t : lora.targets()) {
                int in = t.inFeatures(model);
                int out = t.outFeatures(model);
                float[] a = start != null ? start.a()[layer][t.ordinal()] : kaimingUniform(rng, lora.r() * in, in);
                float[] b = start != null ? start.b()[layer][t.ordinal()] : new float[out * lora.r()];
                aParams[layer][t.ordinal()] = add(new Param(layer, t, true, manager.create(a, new Shape(lora.r(), in))));
                bParams[layer][t.ordinal()] = add(new Param(layer, t, false, manager.create(b, new Shape(out, lora.r()))));
            }
        }
        spec.startFrom().map(folder -> folder.resolve(OPTIMIZER_FILE)).filter(Files::isRegularFile)
                .ifPresent(this::readOptimizer);
    }

    /** The tensor name of one parameter in the PEFT file, which its moments extend. */
    private static String name(Param p) {
        return p.target.tensorName(p.layer, p.isA ? "A" : "B");
    }

    /**
     * AdamW's moments and step count as a previous trainer saved them next to its adapter, so that training carries on
     * across jobs as one optimiser would (ART's trainer keeps its optimiser between steps). A file that does not fit
     * this adapter is an error, not silently dropped.
     */
    private void readOptimizer(Path file) {
        try (SafetensorsReader reader = SafetensorsReader.open(file)) {
            String step = reader.metadata().get(STEP_KEY);
            if (step == null) {
                throw new ModelFormatException("metadata has no '" + STEP_KEY + "'");
            }
            this.steps = Integer.parseInt(step);
            for (Param p : params) {
                for (String moment : new String[] {EXP_AVG, EXP_AVG_SQ}) {
                    String tensor = name(p) + moment;
                    if (!reader.contains(tensor) || !java.util.Arrays.equals(reader.info(tensor).dims(),
                            p.value.getShape().getShape())) {
                        throw new ModelFormatException("tensor '" + tensor + "' is missing or misshaped");
                    }
                    NDArray values = manager.create(reader.floats(tensor), p.value.getShape());
                    if (moment.equals(EXP_AVG)) {
                        p.m.close();
                        p.m = values;
                    } else {
                        p.v.close();
                        p.v = values;
                    }
                }
            }
        } catch (IOException | ModelFormatException | NumberFormatException e) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, "cannot continue training from " + file
                    + ": " + e.getMessage(), e);
        }
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

    private Param add(Param p) {
        params.add(p);
        return p;
    }

    @Override
    public synchronized TrainingBatchResult accumulate(List<TrainingSequence> batch, TokenObjective objective) {
        requireOpen();
        Packed packed = pack(batch);
        try (NDScope scope = new NDScope();
                GradientCollector collector = manager.getEngine().newGradientCollector()) {
            scope.suppressNotUsedWarning();
            NDArray logp = logSoftmax(packed, true);
            NDArray picked = picked(logp, packed);
            List<float[]> logprobs = packed.split(picked.toFloatArray());
            NDArray detached = logp.stopGradient();
            List<float[]> entropies = packed.split(detached.exp().mul(detached).sum(new int[] {-1}).neg().toFloatArray());
            TokenObjective.Evaluation evaluation = objective.evaluate(logprobs);
            float[] coefficients = packed.flatten(evaluation.gradients());
            if (packed.rows().length > 0) {
                collector.backward(picked.mul(manager.create(coefficients)).sum());
                for (Param p : params) {
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
            return new TrainingBatchResult(evaluation.loss(), logprobs, entropies);
        } catch (ai.djl.engine.EngineException e) {
            throw new EngineException(EngineException.Reason.FORWARD_FAILED, "training step failed: " + e.getMessage(),
                    e);
        }
    }

    @Override
    public synchronized List<float[]> logprobs(List<TrainingSequence> batch, boolean withAdapter) {
        requireOpen();
        Packed packed = pack(batch);
        try (NDScope scope = new NDScope()) {
            scope.suppressNotUsedWarning();
            return packed.split(picked(logSoftmax(packed, withAdapter).stopGradient(), packed).toFloatArray());
        } catch (ai.djl.engine.EngineException e) {
            throw new EngineException(EngineException.Reason.FORWARD_FAILED, "forward pass failed: " + e.getMessage(), e);
        }
    }

    /** Each target token's entry of {@code logp [targets, vocab]}: {@code [targets]}. */
    private NDArray picked(NDArray logp, Packed packed) {
        int targets = packed.rows().length;
        return logp.gather(manager.create(packed.targetTokens(), new Shape(targets, 1)), 1).reshape(targets);
    }

    /** Log-softmax of the logits that predict each target, {@code [targets, vocab]}. */
    private NDArray logSoftmax(Packed packed, boolean withAdapter) {
        DjlLoraBatch lora = withAdapter ? DjlLoraBatch.whole(view(manager.create((float) spec.lora().scaling())),
                manager) : DjlLoraBatch.NONE;
        return transformer.trainingLogits(packed.tokens(), packed.lengths(), lora, packed.rows(), manager)
                .logSoftmax(-1);
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
                Param p = aParams[layer][target.ordinal()];
                return p == null ? null : p.value;
            }

            @Override
            public NDArray scaledB(int layer, LoraTarget target) {
                Param p = bParams[layer][target.ordinal()];
                return p == null ? null : p.value.mul(scaling);
            }
        };
    }

    @Override
    public synchronized double step(double learningRate, double maxGradNorm) {
        requireOpen();
        if (!(learningRate >= 0) || !Double.isFinite(learningRate)) {
            throw new IllegalArgumentException("learningRate must be finite and >= 0, got " + learningRate);
        }
        try (NDScope scope = new NDScope()) {
            scope.suppressNotUsedWarning();
            double sumSquares = 0;
            for (Param p : params) {
                if (p.grad != null) {
                    // In double: float32 squares of large gradients overflow before the norm is taken.
                    sumSquares += p.grad.toType(DataType.FLOAT64, false).square().sum().getDouble();
                }
            }
            double norm = Math.sqrt(sumSquares);
            if (!Double.isFinite(norm)) {
                // As a loss scaler does: an overflowed or NaN gradient is dropped rather than written into the adapter.
                for (Param p : params) {
                    if (p.grad != null) {
                        p.grad.close();
                        p.grad = null;
                    }
                }
                return norm;
            }
            // torch.nn.utils.clip_grad_norm_: scale by max_norm / (norm + 1e-6) when that is below 1.
            double clip = maxGradNorm > 0 && Double.isFinite(maxGradNorm) ? Math.min(1.0, maxGradNorm / (norm + 1e-6))
                    : 1.0;
            steps++;
            double b1 = spec.beta1();
            double b2 = spec.beta2();
            double correction1 = 1 - Math.pow(b1, steps);
            double correction2 = 1 - Math.pow(b2, steps);
            for (Param p : params) {
                NDArray g = p.grad == null ? p.value.zerosLike() : p.grad.mul((float) clip);
                NDArray m = p.m.mul((float) b1).add(g.mul((float) (1 - b1)));
                NDArray v = p.v.mul((float) b2).add(g.square().mul((float) (1 - b2)));
                NDArray update = m.div((float) correction1)
                        .div(v.div((float) correction2).sqrt().add((float) spec.epsilon()));
                NDArray value = p.value.stopGradient().mul((float) (1 - learningRate * spec.weightDecay()))
                        .sub(update.mul((float) learningRate));
                value.setRequiresGradient(true);
                NDScope.unregister(m, v, value);
                p.m.close();
                p.v.close();
                p.value.close();
                if (p.grad != null) {
                    p.grad.close();
                    p.grad = null;
                }
                p.m = m;
                p.v = v;
                p.value = value;
            }
            return norm;
        } catch (ai.djl.engine.EngineException e) {
            throw new EngineException(EngineException.Reason.FORWARD_FAILED, "optimiser step failed: " + e.getMessage(),
                    e);
        }
    }

    /** The gradient accumulated since the last step for one matrix ({@code A} or {@code B}); zeros when none. */
    synchronized float[] gradient(int layer, LoraTarget target, boolean ofA) {
        requireOpen();
        Param p = (ofA ? aParams : bParams)[layer][target.ordinal()];
        return p.grad == null ? new float[(int) p.value.size()] : p.grad.toFloatArray();
    }

    @Override
    public synchronized int steps() {
        return steps;
    }

    @Override
    public long trainableParameters() {
        long total = 0;
        for (LoraTarget t : spec.lora().targets()) {
            total += (long) spec.lora().r() * (t.inFeatures(model) + t.outFeatures(model));
        }
        return total * model.numHiddenLayers();
    }

    @Override
    public synchronized void save(Path peftFolder) {
        requireOpen();
        PeftAdapterWriter writer = new PeftAdapterWriter(spec.lora());
        for (int layer = 0; layer < model.numHiddenLayers(); layer++) {
            for (LoraTarget t : spec.lora().targets()) {
                writer.add(layer, t, aParams[layer][t.ordinal()].value.toFloatArray(),
                        bParams[layer][t.ordinal()].value.toFloatArray());
            }
        }
        try {
            writer.write(peftFolder);
            if (steps > 0) {
                SafetensorsWriter moments = new SafetensorsWriter().metadata(STEP_KEY, Integer.toString(steps));
                for (Param p : params) {
                    long[] shape = p.value.getShape().getShape();
                    moments.add(name(p) + EXP_AVG, DType.F32, shape, p.m.toFloatArray());
                    moments.add(name(p) + EXP_AVG_SQ, DType.F32, shape, p.v.toFloatArray());
                }
                moments.write(peftFolder.resolve(OPTIMIZER_FILE));
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

    private Packed pack(List<TrainingSequence> batch) {
        if (batch == null || batch.isEmpty()) {
            throw new IllegalArgumentException("batch must hold at least one sequence, got none");
        }
        return Packed.of(batch, model.vocabSize(), model.maxPositionEmbeddings());
    }

    /**
     * A batch packed row after row: every token, each sequence's length, and the rows whose logits predict a target
     * (row {@code offset + t - 1} for target {@code t}) with the tokens they predict.
     */
    private record Packed(long[] tokens, int[] lengths, long[] rows, long[] targetTokens, int[] targetCounts) {

        static Packed of(List<TrainingSequence> batch, int vocab, int maxLength) {
            int total = 0;
            int targets = 0;
            for (int i = 0; i < batch.size(); i++) {
                TrainingSequence s = batch.get(i);
                if (s.length() > maxLength) {
                    throw new IllegalArgumentException("batch[" + i + "] has " + s.length()
                            + " tokens, more than max_position_embeddings " + maxLength);
                }
                total += s.length();
                targets += s.targetCount();
            }
            long[] tokens = new long[total];
            int[] lengths = new int[batch.size()];
            long[] rows = new long[targets];
            long[] targetTokens = new long[targets];
            int[] counts = new int[batch.size()];
            int offset = 0;
            int r = 0;
            for (int i = 0; i < batch.size(); i++) {
                TrainingSequence s = batch.get(i);
                int[] ids = s.tokenIds();
                for (int j = 0; j < ids.length; j++) {
                    if (ids[j] < 0 || ids[j] >= vocab) {
                        throw new IllegalArgumentException("batch[" + i + "].tokenIds[" + j + "] must be in [0, "
                                + vocab + "), got " + ids[j]);
                    }
                    tokens[offset + j] = ids[j];
                }
                for (int t : s.targets()) {
                    rows[r] = offset + t - 1L;
                    targetTokens[r++] = ids[t];
                }
                lengths[i] = ids.length;
                counts[i] = s.targetCount();
                offset += ids.length;
            }
            return new Packed(tokens, lengths, rows, targetTokens, counts);
        }

        List<float[]> split(float[] flat) {
            List<float[]> out = new ArrayList<>(targetCounts.length);
            int at = 0;
            for (int count : targetCounts) {
                float[] part = new float[count];
                System.arraycopy(flat, at, part, 0, count);
                out.add(part);
                at += count;
            }
            return out;
        }

        float[] flatten(List<float[]> perSequence) {
            if (perSequence.size() != targetCounts.length) {
                throw new IllegalArgumentException("objective returned gradients for " + perSequence.size()
                        + " sequences, expected " + targetCounts.length);
            }
            float[] flat = new float[rows.length];
            int at = 0;
            for (int i = 0; i < targetCounts.length; i++) {
                float[] part = perSequence.get(i);
                if (part == null || part.length != targetCounts[i]) {
                    throw new IllegalArgumentException("objective returned " + (part == null ? "no" : part.length)
                            + " gradients for sequence " + i + ", expected " + targetCounts[i]);
                }
                System.arraycopy(part, 0, flat, at, part.length);
                at += part.length;
            }
            return flat;
        }
    }
}
