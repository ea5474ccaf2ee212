package dev.crucible.hf.tiny;

import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.safetensors.DType;
import dev.crucible.hf.safetensors.SafetensorsWriter;
import java.util.Arrays;
import java.util.Random;

/**
 * Random F32 weights under the exact Hugging Face names and {@code [out, in]} shapes, drawn in file order from one
 * {@link Random} (whose Gaussian is specified, so a seed gives the same bytes on every JDK).
 *
 * <p>Scale, chosen so a forward pass neither vanishes nor saturates and greedy decoding keeps changing tokens
 * (checked against a NumPy forward pass of the Hugging Face modelling code):
 * <ul>
 *   <li>linear weights are N(0, 1/fan_in), so every projection keeps unit scale;</li>
 *   <li>embeddings (and Llama's untied head) are N(0, 0.05²) and the final norm weight is 10·(1 + N(0, 0.1²)), so
 *       logits have a standard deviation near {@code 10 * sqrt(64) * 0.05 = 4} (peaked, but not one-hot). With
 *       tied embeddings a larger embedding would make the current token's own row, carried along the residual
 *       stream, win the logits: greedy decoding then repeats the prompt's last token forever (it did at 0.5);</li>
 *   <li>other norm weights are 1 + N(0, 0.1²) and biases N(0, 0.2²), so a loader that drops either visibly changes
 *       the logits.</li>
 * </ul>
 */
final class TinyWeights {

    static final double EMBEDDING_STD = 0.05;
    static final double FINAL_NORM_SCALE = 10.0;
    static final double NORM_STD = 0.1;
    static final double BIAS_STD = 0.2;

    private final SafetensorsWriter writer = new SafetensorsWriter().metadata("format", "pt");
    private final Random random;
    private long parameters;

    private TinyWeights(long seed) {
        this.random = new Random(seed);
    }

    /**
     * All tensors of {@code c}, ready to write; {@link #parameters()} counts their elements. Embedding and head rows
     * from {@code usedIds} up (padding up to the vocabulary size) are zero, so their logit is 0, far below the top
     * logits, and decoding never produces an id the tokenizer cannot decode.
     */
    static TinyWeights of(ModelConfig c, int usedIds, long seed) {
        TinyWeights w = new TinyWeights(seed);
        int h = c.hiddenSize();
        w.embedding("model.embed_tokens.weight", c.vocabSize(), h, usedIds);
        for (int i = 0; i < c.numHiddenLayers(); i++) {
            String p = "model.layers." + i + ".";
            w.norm(p + "input_layernorm.weight", 1.0, h);
            w.linear(p + "self_attn.q_proj", c.queryDim(), h, c.qkvBias());
            w.linear(p + "self_attn.k_proj", c.keyValueDim(), h, c.qkvBias());
            w.linear(p + "self_attn.v_proj", c.keyValueDim(), h, c.qkvBias());
            w.linear(p + "self_attn.o_proj", h, c.queryDim(), c.outputBias());
            if (c.qkNorm()) {
                w.norm(p + "self_attn.q_norm.weight", 1.0, c.headDim());
                w.norm(p + "self_attn.k_norm.weight", 1.0, c.headDim());
            }
            w.norm(p + "post_attention_layernorm.weight", 1.0, h);
            w.linear(p + "mlp.gate_proj", c.intermediateSize(), h, false);
            w.linear(p + "mlp.up_proj", c.intermediateSize(), h, false);
            w.linear(p + "mlp.down_proj", h, c.intermediateSize(), false);
        }
        w.norm("model.norm.weight", FINAL_NORM_SCALE, h);
        if (!c.tieWordEmbeddings()) {
            w.embedding("lm_head.weight", c.vocabSize(), h, usedIds);
        }
        return w;
    }

    SafetensorsWriter writer() {
        return writer;
    }

    long parameters() {
        return parameters;
    }

    private void linear(String name, int out, int in, boolean bias) {
        gaussian(name + ".weight", 1.0 / Math.sqrt(in), out, in);
        if (bias) {
            gaussian(name + ".bias", BIAS_STD, out);
        }
    }

    private void norm(String name, double scale, int size) {
        float[] values = new float[size];
        for (int i = 0; i < size; i++) {
            values[i] = (float) (scale * (1.0 + NORM_STD * random.nextGaussian()));
        }
        add(name, values, size);
    }

    private void embedding(String name, int rows, int cols, int usedRows) {
        float[] values = draw(EMBEDDING_STD, rows * cols);
        Arrays.fill(values, usedRows * cols, values.length, 0f);
        add(name, values, rows, cols);
    }

    private void gaussian(String name, double std, int... shape) {
        int n = 1;
        for (int d : shape) {
            n *= d;
        }
        add(name, draw(std, n), shape);
    }

    private float[] draw(double std, int n) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (float) (std * random.nextGaussian());
        }
        return values;
    }

    private void add(String name, float[] values, int... shape) {
        long[] dims = new long[shape.length];
        for (int i = 0; i < shape.length; i++) {
            dims[i] = shape[i];
        }
        writer.add(name, DType.F32, dims, values);
        parameters += values.length;
    }
}
