package dev.crucible.bench;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDArrays;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.NDScope;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.training.GradientCollector;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.config.ModelConfigJson;
import dev.crucible.hf.config.RopeScaling;
import dev.crucible.hf.safetensors.DType;
import dev.crucible.hf.safetensors.SafetensorsWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;

/**
 * A tiny Qwen3-shaped decoder trained from scratch, full-parameter, with DJL's PyTorch autograd: the same layer
 * layout as transformers' Qwen3 (RMSNorm, q/k/v/o projections without bias, per-head q/k RMSNorm, rotary embedding
 * with rotate_half, SwiGLU MLP, tied embeddings), as many key/value heads as query heads. Its weights go under their
 * Hugging Face names into {@code model.safetensors}, so Crucible serves exactly the function trained here.
 * Deterministic for a seed (initialisation and data; PyTorch on a fixed thread count). Not thread-safe.
 */
final class LearnTaskModel implements AutoCloseable {

    private static final float EPS = 1e-6f;
    private static final double ROPE_THETA = 10_000.0;
    /**
     * The context. Far more than a problem needs: Crucible packs an RL job's trajectories into rows of this many
     * tokens, one optimiser step per row, so a long context makes each step average over a whole group of problems
     * rather than over the two dozen answers a 256-token row holds (whose steps were noise: accuracy fell).
     */
    private static final int MAX_POSITIONS = 2048;

    private final ModelConfig config;
    private final NDManager manager;
    private final Map<String, NDArray> params = new LinkedHashMap<>();
    private final Map<String, NDArray> m = new LinkedHashMap<>();
    private final Map<String, NDArray> v = new LinkedHashMap<>();
    private int steps;

    /**
     * @param hidden the width; heads of 32 dimensions each
     * @param layers decoder layers
     */
    LearnTaskModel(int hidden, int layers, long seed) {
        int heads = hidden / 32;
        // exactly the tokenizer's ids: a padded row has no token, and a sampler at temperature 1 does draw it
        int vocab = LearnTaskTokenizer.TOKENIZER.size();
        this.config = new ModelConfig(Architecture.QWEN3, hidden, hidden * 4, layers, heads, heads, 32, vocab,
                EPS, ROPE_THETA, new RopeScaling.Unscaled(), MAX_POSITIONS, true, false,
                OptionalInt.of(LearnTaskTokenizer.id(LearnTaskTokenizer.END_OF_TEXT)),
                List.of(LearnTaskTokenizer.id(LearnTaskTokenizer.IM_END)), Optional.of("float32"));
        this.manager = Engine.getEngine("PyTorch").newBaseManager();
        Random random = new Random(seed);
        double std = 0.02;
        double outStd = std / Math.sqrt(2.0 * layers);
        add("model.embed_tokens.weight", random, std, vocab, hidden);
        for (int i = 0; i < layers; i++) {
            String p = "model.layers." + i + ".";
            ones(p + "input_layernorm.weight", hidden);
            add(p + "self_attn.q_proj.weight", random, std, hidden, hidden);
            add(p + "self_attn.k_proj.weight", random, std, hidden, hidden);
            add(p + "self_attn.v_proj.weight", random, std, hidden, hidden);
            add(p + "self_attn.o_proj.weight", random, outStd, hidden, hidden);
            ones(p + "self_attn.q_norm.weight", 32);
            ones(p + "self_attn.k_norm.weight", 32);
            ones(p + "post_attention_layernorm.weight", hidden);
            add(p + "mlp.gate_proj.weight", random, std, 4 * hidden, hidden);
            add(p + "mlp.up_proj.weight", random, std, 4 * hidden, hidden);
            add(p + "mlp.down_proj.weight", random, outStd, hidden, 4 * hidden);
        }
        ones("model.norm.weight", hidden);
    }

    ModelConfig config() {
        return config;
    }

    long parameters() {
        return params.values().stream().mapToLong(NDArray::size).sum();
    }

    private void add(String name, Random random, double std, int... shape) {
        float[] values = new float[Math.toIntExact(new Shape(toLong(shape)).size())];
        for (int i = 0; i < values.length; i++) {
            values[i] = (float) (random.nextGaussian() * std);
        }
        put(name, manager.create(values, new Shape(toLong(shape))));
    }

    private void ones(String name, int size) {
        put(name, manager.ones(new Shape(size)));
    }

    private void put(String name, NDArray value) {
        value.setRequiresGradient(true);
        params.put(name, value);
        m.put(name, value.zerosLike());
        v.put(name, value.zerosLike());
    }

    private static long[] toLong(int[] shape) {
        long[] out = new long[shape.length];
        for (int i = 0; i < shape.length; i++) {
            out[i] = shape[i];
        }
        return out;
    }

    /** Logits {@code [batch, length, vocab]} of equal-length sequences (causal: padding after a row never matters). */
    private NDArray logits(NDManager sm, int[][] ids) {
        int batch = ids.length;
        int length = ids[0].length;
        int hidden = config.hiddenSize();
        int heads = config.numAttentionHeads();
        int headDim = config.headDim();
        long[] flat = new long[batch * length];
        for (int b = 0; b < batch; b++) {
            for (int t = 0; t < length; t++) {
                flat[b * length + t] = ids[b][t];
            }
        }
        NDArray embed = params.get("model.embed_tokens.weight");
        NDArray h = sm.create(flat, new Shape(batch, length)).oneHot(config.vocabSize()).toType(DataType.FLOAT32, false)
                .matMul(embed);
        NDList cosSin = rope(sm, length, headDim);
        NDArray mask = causalMask(sm, length);
        NDArray scale = sm.create((float) (1.0 / Math.sqrt(headDim)));
        for (int i = 0; i < config.numHiddenLayers(); i++) {
            String p = "model.layers." + i + ".";
            NDArray x = rms(h, params.get(p + "input_layernorm.weight"));
            NDArray q = rms(linear(x, p + "self_attn.q_proj.weight").reshape(batch, length, heads, headDim),
                    params.get(p + "self_attn.q_norm.weight"));
            NDArray k = rms(linear(x, p + "self_attn.k_proj.weight").reshape(batch, length, heads, headDim),
                    params.get(p + "self_attn.k_norm.weight"));
            NDArray val = linear(x, p + "self_attn.v_proj.weight").reshape(batch, length, heads, headDim);
            q = rotate(q, cosSin, headDim).transpose(0, 2, 1, 3);
            k = rotate(k, cosSin, headDim).transpose(0, 2, 1, 3);
            NDArray scores = q.matMul(k.transpose(0, 1, 3, 2)).mul(scale).add(mask);
            NDArray attended = scores.softmax(-1).matMul(val.transpose(0, 2, 1, 3)).transpose(0, 2, 1, 3)
                    .reshape(batch, length, hidden);
            h = h.add(linear(attended, p + "self_attn.o_proj.weight"));
            NDArray y = rms(h, params.get(p + "post_attention_layernorm.weight"));
            NDArray gate = linear(y, p + "mlp.gate_proj.weight");
            NDArray up = linear(y, p + "mlp.up_proj.weight");
            h = h.add(linear(gate.mul(Activation.sigmoid(gate)).mul(up), p + "mlp.down_proj.weight"));
        }
        return rms(h, params.get("model.norm.weight")).matMul(embed.transpose());
    }

    private NDArray linear(NDArray x, String weight) {
        return x.matMul(params.get(weight).transpose());
    }

    private static NDArray rms(NDArray x, NDArray weight) {
        return x.div(x.square().mean(new int[] {-1}, true).add(EPS).sqrt()).mul(weight);
    }

    private static NDArray rotate(NDArray x, NDList cosSin, int headDim) {
        int half = headDim / 2;
        NDArray first = x.get(new NDIndex("..., :{}", half));
        NDArray second = x.get(new NDIndex("..., {}:", half));
        return x.mul(cosSin.get(0)).add(NDArrays.concat(new NDList(second.neg(), first), -1).mul(cosSin.get(1)));
    }

    /** {@code cos}, {@code sin} of shape {@code [length, 1, head_dim]} in the Hugging Face convention. */
    private static NDList rope(NDManager sm, int length, int headDim) {
        int half = headDim / 2;
        float[] cos = new float[length * headDim];
        float[] sin = new float[cos.length];
        for (int t = 0; t < length; t++) {
            for (int i = 0; i < headDim; i++) {
                double angle = t * Math.pow(ROPE_THETA, -2.0 * (i % half) / headDim);
                cos[t * headDim + i] = (float) Math.cos(angle);
                sin[t * headDim + i] = (float) Math.sin(angle);
            }
        }
        Shape shape = new Shape(length, 1, headDim);
        return new NDList(sm.create(cos, shape), sm.create(sin, shape));
    }

    private static NDArray causalMask(NDManager sm, int length) {
        float[] mask = new float[length * length];
        for (int i = 0; i < length; i++) {
            for (int j = i + 1; j < length; j++) {
                mask[i * length + j] = Float.NEGATIVE_INFINITY;
            }
        }
        return sm.create(mask, new Shape(length, length));
    }

    /**
     * One AdamW step (no weight decay, gradient norm clipped at 1) on the mean cross-entropy of the weighted
     * next-token targets; returns that loss.
     *
     * @param ids     equal-length sequences
     * @param weights per sequence and position: the weight of predicting {@code ids[b][t + 1]} at {@code t}
     */
    double step(int[][] ids, float[][] weights, double learningRate) {
        int batch = ids.length;
        int length = ids[0].length;
        int vocab = config.vocabSize();
        float[] targets = new float[batch * length * vocab];
        float total = 0;
        for (int b = 0; b < batch; b++) {
            for (int t = 0; t + 1 < length; t++) {
                targets[(b * length + t) * vocab + ids[b][t + 1]] = weights[b][t];
                total += weights[b][t];
            }
        }
        try (NDScope scope = new NDScope()) {
            scope.suppressNotUsedWarning();
            double loss;
            try (GradientCollector collector = manager.getEngine().newGradientCollector()) {
                NDArray logp = logits(manager, ids).logSoftmax(-1);
                NDArray nll = logp.mul(manager.create(targets, new Shape(batch, length, vocab))).sum().neg()
                        .div(manager.create(total));
                loss = nll.getFloat();
                collector.backward(nll);
            }
            adam(learningRate);
            return loss;
        }
    }

    private void adam(double learningRate) {
        double beta1 = 0.9;
        double beta2 = 0.98;
        double sumSquares = 0;
        for (NDArray p : params.values()) {
            sumSquares += p.getGradient().square().sum().getFloat();
        }
        double clip = Math.min(1.0, 1.0 / (Math.sqrt(sumSquares) + 1e-6));
        steps++;
        double c1 = 1 - Math.pow(beta1, steps);
        double c2 = 1 - Math.pow(beta2, steps);
        for (Map.Entry<String, NDArray> e : params.entrySet()) {
            String name = e.getKey();
            NDArray p = e.getValue();
            NDArray g = p.getGradient().mul((float) clip);
            NDArray mNew = m.get(name).mul((float) beta1).add(g.mul((float) (1 - beta1)));
            NDArray vNew = v.get(name).mul((float) beta2).add(g.square().mul((float) (1 - beta2)));
            NDArray update = mNew.div((float) c1).div(vNew.div((float) c2).sqrt().add(1e-8f));
            NDArray value = p.stopGradient().sub(update.mul((float) learningRate));
            value.setRequiresGradient(true);
            NDScope.unregister(mNew, vNew, value);
            m.put(name, mNew).close();
            v.put(name, vNew).close();
            params.put(name, value).close();
        }
    }

    /**
     * Greedy answers of {@code prompts} (each already ending in the answer mark), at most {@code maxTokens} tokens
     * each, stopping at {@code <|im_end|>}; the returned strings hold the vocabulary characters generated.
     */
    List<String> greedy(List<int[]> prompts, int maxTokens) {
        int end = LearnTaskTokenizer.id(LearnTaskTokenizer.IM_END);
        List<String> out = new ArrayList<>();
        for (int[] prompt : prompts) {
            out.add(null);
        }
        // equal-length prompts run as one batch
        Map<Integer, List<Integer>> byLength = new LinkedHashMap<>();
        for (int i = 0; i < prompts.size(); i++) {
            byLength.computeIfAbsent(prompts.get(i).length, k -> new ArrayList<>()).add(i);
        }
        for (List<Integer> group : byLength.values()) {
            int[][] ids = new int[group.size()][];
            StringBuilder[] text = new StringBuilder[group.size()];
            boolean[] done = new boolean[group.size()];
            for (int j = 0; j < ids.length; j++) {
                ids[j] = prompts.get(group.get(j)).clone();
                text[j] = new StringBuilder();
            }
            for (int n = 0; n < maxTokens; n++) {
                int[] next;
                try (NDScope scope = new NDScope()) {
                    scope.suppressNotUsedWarning();
                    NDArray logits = logits(manager, ids);
                    long length = ids[0].length;
                    next = logits.get(new NDIndex(":, {}, :", length - 1)).argMax(-1).toType(DataType.INT32, false)
                            .toIntArray();
                }
                for (int j = 0; j < ids.length; j++) {
                    int[] longer = java.util.Arrays.copyOf(ids[j], ids[j].length + 1);
                    longer[ids[j].length] = next[j];
                    ids[j] = longer;
                    if (!done[j]) {
                        if (next[j] == end) {
                            done[j] = true;
                        } else if (next[j] < LearnTaskTokenizer.VOCAB.size()) {
                            text[j].append(LearnTaskTokenizer.VOCAB.get(next[j]));
                        } else {
                            text[j].append('?');
                        }
                    }
                }
            }
            for (int j = 0; j < ids.length; j++) {
                out.set(group.get(j), text[j].toString());
            }
        }
        return out;
    }

    /** Writes the Hugging Face folder: weights, config, tokenizer, tokenizer config, generation config. */
    void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        SafetensorsWriter writer = new SafetensorsWriter();
        for (Map.Entry<String, NDArray> e : params.entrySet()) {
            writer.add(e.getKey(), DType.F32, e.getValue().getShape().getShape(), e.getValue().toFloatArray());
        }
        writer.write(dir.resolve("model.safetensors"));
        Files.writeString(dir.resolve("tokenizer.json"), LearnTaskTokenizer.TOKENIZER.toJson());
        Files.writeString(dir.resolve("tokenizer_config.json"), LearnTaskTokenizer.configJson(MAX_POSITIONS));
        int end = LearnTaskTokenizer.id(LearnTaskTokenizer.IM_END);
        int pad = LearnTaskTokenizer.id(LearnTaskTokenizer.END_OF_TEXT);
        Files.writeString(dir.resolve("generation_config.json"), "{\n  \"bos_token_id\": " + pad
                + ",\n  \"eos_token_id\": [" + end + ", " + pad + "],\n  \"pad_token_id\": " + pad
                + ",\n  \"do_sample\": true,\n  \"temperature\": 1.0,\n  \"top_p\": 1.0\n}\n");
        Files.writeString(dir.resolve("config.json"), ModelConfigJson.toJson(config));
    }

    @Override
    public void close() {
        manager.close();
    }
}
