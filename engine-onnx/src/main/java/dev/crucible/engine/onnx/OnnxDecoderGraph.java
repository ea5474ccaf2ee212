package dev.crucible.engine.onnx;

import static dev.crucible.engine.onnx.OnnxGraph.MS;
import static dev.crucible.engine.onnx.OnnxGraph.floatAttr;
import static dev.crucible.engine.onnx.OnnxGraph.intAttr;

import ai.onnx.proto.OnnxMl.TensorProto.DataType;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.peft.LoraTarget;
import java.util.Arrays;
import java.util.Set;

/**
 * Builds the decoder graph of LlamaForCausalLM, Qwen2ForCausalLM and Qwen3ForCausalLM the way onnxruntime-genai builds
 * it for the CPU in F32 (shared/reference/onnx-decoder.md sections 1 to 3): {@code SimplifiedLayerNormalization} for
 * the first norm and {@code SkipSimplifiedLayerNormalization} (fusing the residual add) for every later one;
 * {@code GroupQueryAttention} with the rotary embedding built in and the KV cache updated in place; SwiGLU as
 * {@code Sigmoid}, {@code Mul}, {@code Mul}. Qwen3's per-head q/k norms are a {@code Reshape},
 * {@code SimplifiedLayerNormalization}, {@code Reshape} subgraph (GQA's fused norm inputs fail on the CPU).
 *
 * <p>At F32 every linear is {@code com.microsoft:FusedMatMul} with {@code transB=1} over the Hugging Face
 * {@code [out, in]} weight as stored, so no weight is transposed or concatenated in Java, and a tied head reads the
 * embedding table itself. At int4 and int8 every linear, the lm_head included, is {@code com.microsoft:MatMulNBits}
 * over the weight quantised at load ({@link OnnxBlockQuant}); the embedding lookup stays F32.
 *
 * <p>Without LoRA, q, k and v are one projection, as onnxruntime-genai packs them: their weights (and biases) are
 * stacked by {@code Concat} nodes over the initializers, which ONNX Runtime's constant folding turns into one weight
 * while the session is created, so Java copies nothing. A decode step then runs two fewer matrix products and bias
 * additions per layer, and the small k and v products no longer pay their fixed cost alone. GroupQueryAttention takes
 * the packed q|k|v as is; Qwen3's q/k norms split it first. The LoRA graph keeps every projection apart, so each
 * carries its own delta. It adds, per layer and target, inputs
 * {@code lora.N.<module>.a [rows|1, r, in]} and {@code .b [rows|1, out, r]} (see {@link OnnxLoraInputs}) and adds
 * {@code (x A^T) B^T} to the projection, row by row; likewise {@code lora.0.lm_head.a [logit_rows|1, r, hidden]} and
 * {@code .b [logit_rows|1, vocab, r]} add the unembedding's delta per logit row (zeros where no adapter adapts it).
 *
 * <p>The products run over a run's tokens as one list, {@code [1, tokens, hidden]}; attention runs in two groups
 * ({@link OnnxRun}), each {@code GroupQueryAttention} node taking its tokens by {@code Gather}: the decoding rows, one
 * token each, and one prompt piece on its own row; the two outputs side by side are gathered back into token order.
 * So a step that decodes while a prompt is prefilled reads every weight once. The LoRA graph's per-row deltas reshape
 * the tokens to {@code lora_shape}, {@code [rows, -1, 0]}, which a run of one group (decoding rows, or one piece)
 * lays out row by row.
 *
 * <p>Inputs: {@code input_ids} int64 {@code [1, tokens]}; {@code decode_tokens} and {@code piece_tokens} int64, the
 * tokens of each group; {@code token_slots} int64 {@code [tokens]}, each token's slot among the groups' outputs;
 * {@code seqlens_k} int32 {@code [decode_rows]} and {@code piece_seqlens_k} int32 {@code [1]} (each row's total length
 * minus one) with {@code total_sequence_length} and {@code piece_total_sequence_length}, int32 scalars;
 * {@code logit_rows} int64 {@code [rows]}, the tokens whose logits are wanted; per layer
 * {@code past_key_values.N.key/value} {@code [decode_rows, kv_heads, max_len, head_dim]} and
 * {@code piece.past_key_values.N.key/value} {@code [1, kv_heads, piece_max_len, head_dim]}. Outputs:
 * {@code logits [rows, vocab]} and per layer {@code present.N.key/value} and {@code piece.present.N.key/value}, which
 * the runner binds to the same buffers as the pasts.
 */
final class OnnxDecoderGraph {

    static final String INPUT_IDS = "input_ids";
    static final String DECODE_TOKENS = "decode_tokens";
    static final String PIECE_TOKENS = "piece_tokens";
    static final String TOKEN_SLOTS = "token_slots";
    static final String SEQLENS_K = "seqlens_k";
    static final String TOTAL_LENGTH = "total_sequence_length";
    static final String PIECE_SEQLENS_K = "piece_seqlens_k";
    static final String PIECE_TOTAL_LENGTH = "piece_total_sequence_length";
    static final String LOGIT_ROWS = "logit_rows";
    static final String LORA_SHAPE = "lora_shape";
    static final String LOGITS = "logits";

    private final ModelConfig c;
    private final OnnxWeights w;
    private final boolean lora;
    private final OnnxPrecision precision;
    private final OnnxGraph g = new OnnxGraph();

    private OnnxDecoderGraph(ModelConfig config, OnnxWeights weights, boolean lora, OnnxPrecision precision) {
        this.c = config;
        this.w = weights;
        this.lora = lora;
        this.precision = precision;
    }

    static String pastKey(int layer) {
        return "past_key_values." + layer + ".key";
    }

    static String pastValue(int layer) {
        return "past_key_values." + layer + ".value";
    }

    static String presentKey(int layer) {
        return "present." + layer + ".key";
    }

    static String presentValue(int layer) {
        return "present." + layer + ".value";
    }

    /** The piece group's tensor of the decoding group's {@code name}: its own past or present cache. */
    static String piece(String name) {
        return "piece." + name;
    }

    /**
     * The serialised model, its weights declared in {@code weights}.
     *
     * @param ropePositions rows of the rotary tables: more than the largest position any cache buffer can hold
     * @param lora          whether every projection of every layer also adds {@code B (A x)} from the LoRA inputs
     *                      ({@link OnnxLoraInputs}), per batch row
     * @param precision     F32 linears ({@code FusedMatMul}) or int4/int8 ones ({@code MatMulNBits})
     */
    static byte[] build(ModelConfig config, OnnxWeights weights, int ropePositions, boolean lora,
            OnnxPrecision precision) {
        OnnxDecoderGraph b = new OnnxDecoderGraph(config, weights, lora, precision);
        b.declareIo();
        OnnxRope rope = OnnxRope.of(config, ropePositions);
        b.g.floatConstant("cos_cache", rope.cos(), rope.positions(), rope.half());
        b.g.floatConstant("sin_cache", rope.sin(), rope.positions(), rope.half());
        b.g.int64Constant("shape_heads", 0, -1, config.headDim());
        b.g.int64Constant("shape_q", 0, -1, config.queryDim());
        b.g.int64Constant("shape_kv", 0, -1, config.keyValueDim());
        b.g.int64Constant("shape_rows", -1, config.hiddenSize());
        b.g.int64Constant("shape_flat", 1, -1, 0);
        b.g.int64Constant("shape_decode_qkv", -1, 1, config.queryDim() + 2L * config.keyValueDim());
        b.g.int64Constant("shape_decode_q", -1, 1, config.queryDim());
        b.g.int64Constant("shape_decode_kv", -1, 1, config.keyValueDim());
        b.g.int64Constant("shape_flat_q", 1, -1, config.queryDim());
        b.g.int64Constant("split_qkv", config.queryDim(), config.keyValueDim(), config.keyValueDim());
        b.layers();
        return b.g.toModelBytes();
    }

    private void declareIo() {
        g.input(INPUT_IDS, DataType.INT64, 1, "tokens");
        g.input(DECODE_TOKENS, DataType.INT64, "decode_rows");
        g.input(PIECE_TOKENS, DataType.INT64, "piece_tokens");
        g.input(TOKEN_SLOTS, DataType.INT64, "tokens");
        g.input(SEQLENS_K, DataType.INT32, "decode_rows");
        g.input(TOTAL_LENGTH, DataType.INT32);
        g.input(PIECE_SEQLENS_K, DataType.INT32, 1);
        g.input(PIECE_TOTAL_LENGTH, DataType.INT32);
        g.input(LOGIT_ROWS, DataType.INT64, "rows");
        g.output(LOGITS, DataType.FLOAT, "rows", c.vocabSize());
        if (lora) {
            g.input(LORA_SHAPE, DataType.INT64, 3);
        }
        for (int i = 0; i < c.numHiddenLayers(); i++) {
            g.input(pastKey(i), DataType.FLOAT, "decode_rows", c.numKeyValueHeads(), "max_len", c.headDim());
            g.input(pastValue(i), DataType.FLOAT, "decode_rows", c.numKeyValueHeads(), "max_len", c.headDim());
            g.output(presentKey(i), DataType.FLOAT, "decode_rows", c.numKeyValueHeads(), "max_len", c.headDim());
            g.output(presentValue(i), DataType.FLOAT, "decode_rows", c.numKeyValueHeads(), "max_len", c.headDim());
            g.input(piece(pastKey(i)), DataType.FLOAT, 1, c.numKeyValueHeads(), "piece_max_len", c.headDim());
            g.input(piece(pastValue(i)), DataType.FLOAT, 1, c.numKeyValueHeads(), "piece_max_len", c.headDim());
            g.output(piece(presentKey(i)), DataType.FLOAT, 1, c.numKeyValueHeads(), "piece_max_len", c.headDim());
            g.output(piece(presentValue(i)), DataType.FLOAT, 1, c.numKeyValueHeads(), "piece_max_len", c.headDim());
            for (LoraTarget t : lora ? LoraTarget.layerProjections() : Set.<LoraTarget>of()) {
                String rank = "rank_" + i + "_" + t.module();
                g.input(OnnxLoraInputs.aName(i, t), DataType.FLOAT, "lora_rows", rank, t.inFeatures(c));
                g.input(OnnxLoraInputs.bName(i, t), DataType.FLOAT, "lora_rows", t.outFeatures(c), rank);
            }
        }
        if (lora) {
            LoraTarget t = LoraTarget.LM_HEAD;
            g.input(OnnxLoraInputs.aName(0, t), DataType.FLOAT, "lora_logit_rows", "rank_head", t.inFeatures(c));
            g.input(OnnxLoraInputs.bName(0, t), DataType.FLOAT, "lora_logit_rows", t.outFeatures(c), "rank_head");
        }
    }

    private void layers() {
        long h = c.hiddenSize();
        OnnxWeights.Table embed = w.lookupTable(g, "model.embed_tokens.weight", c.vocabSize(), h);
        if (embed.f32()) {
            g.node("Gather", new String[] {embed.name(), INPUT_IDS}, new String[] {"embedded"});
        } else {
            // a BF16/F16 table stays narrow and file-backed: look the rows up, then widen just them
            g.node("Gather", new String[] {embed.name(), INPUT_IDS}, new String[] {"embedded.narrow"});
            g.node("Cast", new String[] {"embedded.narrow"}, new String[] {"embedded"},
                    intAttr("to", DataType.FLOAT.getNumber()));
        }
        String residual = "embedded";
        String pending = null;
        for (int i = 0; i < c.numHiddenLayers(); i++) {
            String p = "model.layers." + i + ".";
            String x = "l" + i + ".x";
            String norm = w.use(g, p + "input_layernorm.weight", h);
            if (pending == null) {
                g.node("SimplifiedLayerNormalization", new String[] {residual, norm}, new String[] {x},
                        intAttr("axis", -1), floatAttr("epsilon", eps()), intAttr("stash_type", 1));
            } else {
                String sum = "l" + i + ".residual";
                g.node(MS, "SkipSimplifiedLayerNormalization", new String[] {residual, pending, norm},
                        new String[] {x, "", "", sum}, floatAttr("epsilon", eps()));
                residual = sum;
            }
            String attended = attention(i, p, x);
            String afterAttention = "l" + i + ".residual_mid";
            String y = "l" + i + ".y";
            g.node(MS, "SkipSimplifiedLayerNormalization",
                    new String[] {residual, attended, w.use(g, p + "post_attention_layernorm.weight", h)},
                    new String[] {y, "", "", afterAttention}, floatAttr("epsilon", eps()));
            residual = afterAttention;
            pending = mlp(i, p, y);
        }
        g.node(MS, "SkipSimplifiedLayerNormalization",
                new String[] {residual, pending, w.use(g, "model.norm.weight", h)}, new String[] {"final_normed"},
                floatAttr("epsilon", eps()));
        // Logits only for the rows asked for: a vocabulary-wide head over every prompt token would dominate prefill.
        g.node("Reshape", new String[] {"final_normed", "shape_rows"}, new String[] {"final_rows"});
        g.node("Gather", new String[] {"final_rows", LOGIT_ROWS}, new String[] {"picked"}, intAttr("axis", 0));
        String head = c.tieWordEmbeddings() ? "model.embed_tokens.weight" : "lm_head.weight";
        if (!lora) {
            linear("picked", head, c.vocabSize(), h, null, LOGITS);
            return;
        }
        // The head's LoRA per logit row: [rows, 1, h] x A^T [rows|1, r, h] x B^T [rows|1, vocab, r] -> [rows, vocab],
        // so the vocabulary-wide delta is computed for the picked rows only.
        linear("picked", head, c.vocabSize(), h, null, "logits.base");
        g.int64Constant("head.axis1", 1);
        g.node("Unsqueeze", new String[] {"picked", "head.axis1"}, new String[] {"picked.rows"});
        g.node(MS, "FusedMatMul", new String[] {"picked.rows", OnnxLoraInputs.aName(0, LoraTarget.LM_HEAD)},
                new String[] {"head.xa"}, intAttr("transB", 1));
        g.node(MS, "FusedMatMul", new String[] {"head.xa", OnnxLoraInputs.bName(0, LoraTarget.LM_HEAD)},
                new String[] {"head.delta.rows"}, intAttr("transB", 1));
        g.node("Squeeze", new String[] {"head.delta.rows", "head.axis1"}, new String[] {"head.delta"});
        g.node("Add", new String[] {"logits.base", "head.delta"}, new String[] {LOGITS});
    }

    private String attention(int i, String p, String x) {
        String a = p + "self_attn.";
        long h = c.hiddenSize();
        long q = c.queryDim();
        long kv = c.keyValueDim();
        String l = "l" + i + ".";
        String packed = "";
        if (lora) {
            adapted(i, LoraTarget.Q_PROJ, x, a + "q_proj.weight", q, h,
                    w.useIf(c.qkvBias(), g, a + "q_proj.bias", q), l + "q");
            adapted(i, LoraTarget.K_PROJ, x, a + "k_proj.weight", kv, h,
                    w.useIf(c.qkvBias(), g, a + "k_proj.bias", kv), l + "k");
            adapted(i, LoraTarget.V_PROJ, x, a + "v_proj.weight", kv, h,
                    w.useIf(c.qkvBias(), g, a + "v_proj.bias", kv), l + "v");
        } else {
            String bias = null;
            if (c.qkvBias()) {
                bias = l + "qkv_bias";
                g.node("Concat", new String[] {w.use(g, a + "q_proj.bias", q), w.use(g, a + "k_proj.bias", kv),
                    w.use(g, a + "v_proj.bias", kv)}, new String[] {bias}, intAttr("axis", 0));
            }
            packed = l + "qkv";
            stackedLinear(x, new String[] {a + "q_proj.weight", a + "k_proj.weight", a + "v_proj.weight"},
                    new long[] {q, kv, kv}, h, bias, packed);
            if (c.qkNorm()) {
                g.node("Split", new String[] {packed, "split_qkv"}, new String[] {l + "q", l + "k", l + "v"},
                        intAttr("axis", -1));
                packed = "";
            }
        }
        String[] qkv = {packed, "", ""};
        String[] decodeShapes = {"shape_decode_qkv", "", ""};
        if (packed.isEmpty()) {
            String query = l + "q";
            String key = l + "k";
            if (c.qkNorm()) {
                query = headNorm(l + "q", w.use(g, a + "q_norm.weight", c.headDim()), "shape_q");
                key = headNorm(l + "k", w.use(g, a + "k_norm.weight", c.headDim()), "shape_kv");
            }
            qkv = new String[] {query, key, l + "v"};
            decodeShapes = new String[] {"shape_decode_q", "shape_decode_kv", "shape_decode_kv"};
        }
        // The two groups' queries, keys and values: the decoding rows' tokens as [rows, 1, dim], the prompt piece's
        // as [1, tokens, dim], each taken from the step's tokens by index.
        String[] decoding = {"", "", ""};
        String[] piece = {"", "", ""};
        for (int j = 0; j < qkv.length; j++) {
            if (qkv[j].isEmpty()) {
                continue;
            }
            g.node("Gather", new String[] {qkv[j], DECODE_TOKENS}, new String[] {qkv[j] + ".decode.flat"},
                    intAttr("axis", 1));
            g.node("Reshape", new String[] {qkv[j] + ".decode.flat", decodeShapes[j]},
                    new String[] {qkv[j] + ".decode"});
            decoding[j] = qkv[j] + ".decode";
            g.node("Gather", new String[] {qkv[j], PIECE_TOKENS}, new String[] {qkv[j] + ".piece"},
                    intAttr("axis", 1));
            piece[j] = qkv[j] + ".piece";
        }
        groupQueryAttention(decoding, pastKey(i), pastValue(i), SEQLENS_K, TOTAL_LENGTH, l + "attn.decode",
                presentKey(i), presentValue(i));
        groupQueryAttention(piece, piece(pastKey(i)), piece(pastValue(i)), PIECE_SEQLENS_K, PIECE_TOTAL_LENGTH,
                l + "attn.piece", piece(presentKey(i)), piece(presentValue(i)));
        // back to the step's tokens: the groups' outputs side by side, then each token's slot among them
        g.node("Reshape", new String[] {l + "attn.decode", "shape_flat_q"}, new String[] {l + "attn.decode.flat"});
        g.node("Concat", new String[] {l + "attn.decode.flat", l + "attn.piece"}, new String[] {l + "attn.slots"},
                intAttr("axis", 1));
        g.node("Gather", new String[] {l + "attn.slots", TOKEN_SLOTS}, new String[] {l + "attn"},
                intAttr("axis", 1));
        adapted(i, LoraTarget.O_PROJ, l + "attn", a + "o_proj.weight", h, q,
                w.useIf(c.outputBias(), g, a + "o_proj.bias", h), l + "o");
        return l + "o";
    }

    private void groupQueryAttention(String[] qkv, String pastKey, String pastValue, String seqlens, String total,
            String out, String presentKey, String presentValue) {
        g.node(MS, "GroupQueryAttention", new String[] {qkv[0], qkv[1], qkv[2], pastKey, pastValue, seqlens, total,
            "cos_cache", "sin_cache"}, new String[] {out, presentKey, presentValue},
                intAttr("num_heads", c.numAttentionHeads()), intAttr("kv_num_heads", c.numKeyValueHeads()),
                floatAttr("scale", (float) (1.0 / Math.sqrt(c.headDim()))), intAttr("do_rotary", 1),
                intAttr("rotary_interleaved", 0));
    }

    /** Qwen3's RMS norm of every head over head_dim: {@code [b, s, n*d] -> [b, s*n, d] -> norm -> [b, s, n*d]}. */
    private String headNorm(String x, String weight, String backShape) {
        g.node("Reshape", new String[] {x, "shape_heads"}, new String[] {x + ".heads"});
        g.node("SimplifiedLayerNormalization", new String[] {x + ".heads", weight}, new String[] {x + ".normed"},
                intAttr("axis", -1), floatAttr("epsilon", eps()), intAttr("stash_type", 1));
        g.node("Reshape", new String[] {x + ".normed", backShape}, new String[] {x + ".n"});
        return x + ".n";
    }

    private String mlp(int i, String p, String y) {
        long h = c.hiddenSize();
        long m = c.intermediateSize();
        String l = "l" + i + ".";
        // gate and up stay two products: packed, the Split that takes them apart again cost more than it saved
        // (measured at batch 1 and 8, F32 and int4).
        adapted(i, LoraTarget.GATE_PROJ, y, p + "mlp.gate_proj.weight", m, h, null, l + "gate");
        adapted(i, LoraTarget.UP_PROJ, y, p + "mlp.up_proj.weight", m, h, null, l + "up");
        g.node("Sigmoid", new String[] {l + "gate"}, new String[] {l + "sig"});
        g.node("Mul", new String[] {l + "gate", l + "sig"}, new String[] {l + "silu"});
        g.node("Mul", new String[] {l + "silu", l + "up"}, new String[] {l + "swiglu"});
        adapted(i, LoraTarget.DOWN_PROJ, l + "swiglu", p + "mlp.down_proj.weight", h, m, null, l + "down");
        return l + "down";
    }

    /**
     * A projection LoRA may adapt: {@link #linear}, plus in the LoRA graph {@code (x A^T) B^T} with each row's
     * {@code A [r, in]} and scaled {@code B [out, r]} (PEFT's layouts, so nothing is transposed in Java).
     */
    private void adapted(int layer, LoraTarget target, String x, String weight, long rows, long cols, String bias,
            String out) {
        if (!lora) {
            linear(x, weight, rows, cols, bias, out);
            return;
        }
        linear(x, weight, rows, cols, bias, out + ".base");
        g.node("Reshape", new String[] {x, LORA_SHAPE}, new String[] {out + ".rows"});
        g.node(MS, "FusedMatMul", new String[] {out + ".rows", OnnxLoraInputs.aName(layer, target)},
                new String[] {out + ".xa"}, intAttr("transB", 1));
        g.node(MS, "FusedMatMul", new String[] {out + ".xa", OnnxLoraInputs.bName(layer, target)},
                new String[] {out + ".delta.rows"}, intAttr("transB", 1));
        g.node("Reshape", new String[] {out + ".delta.rows", "shape_flat"}, new String[] {out + ".delta"});
        g.node("Add", new String[] {out + ".base", out + ".delta"}, new String[] {out});
    }

    /**
     * {@code out = x W^T (+ bias)} for the Hugging Face weight named {@code weight}, {@code [rows, cols]} (out, in):
     * {@code FusedMatMul} over the weight as stored, or {@code MatMulNBits} over its quantised form.
     */
    private void linear(String x, String weight, long rows, long cols, String bias, String out) {
        if (precision.quantized()) {
            String[] q = w.quantized(g, weight, rows, cols, precision.bits(), precision.block());
            quantizedProduct(x, q[0], q[1], rows, cols, bias, out);
        } else {
            f32Product(x, w.use(g, weight, rows, cols), bias, out);
        }
    }

    /**
     * One product over several weights of the same input width stacked by rows, {@code [sum(rows), cols]}: a
     * {@code Concat} of the initializers (of their quantised parts), which constant folding makes one weight.
     */
    private void stackedLinear(String x, String[] weights, long[] rows, long cols, String bias, String out) {
        long total = Arrays.stream(rows).sum();
        String[] parts = new String[weights.length];
        if (precision.quantized()) {
            String[] scales = new String[weights.length];
            for (int k = 0; k < weights.length; k++) {
                String[] q = w.quantized(g, weights[k], rows[k], cols, precision.bits(), precision.block());
                parts[k] = q[0];
                scales[k] = q[1];
            }
            g.node("Concat", parts, new String[] {out + ".packed"}, intAttr("axis", 0));
            g.node("Concat", scales, new String[] {out + ".scales"}, intAttr("axis", 0));
            quantizedProduct(x, out + ".packed", out + ".scales", total, cols, bias, out);
        } else {
            for (int k = 0; k < weights.length; k++) {
                parts[k] = w.use(g, weights[k], rows[k], cols);
            }
            g.node("Concat", parts, new String[] {out + ".weight"}, intAttr("axis", 0));
            f32Product(x, out + ".weight", bias, out);
        }
    }

    private void f32Product(String x, String weight, String bias, String out) {
        String product = bias == null ? out : out + ".nobias";
        g.node(MS, "FusedMatMul", new String[] {x, weight}, new String[] {product}, intAttr("transB", 1));
        addBias(product, bias, out);
    }

    private void quantizedProduct(String x, String values, String scales, long rows, long cols, String bias,
            String out) {
        String product = bias == null ? out : out + ".nobias";
        g.node(MS, "MatMulNBits", new String[] {x, values, scales}, new String[] {product}, intAttr("K", cols),
                intAttr("N", rows), intAttr("bits", precision.bits()), intAttr("block_size", precision.block()),
                intAttr("accuracy_level", precision.accuracyLevel()));
        addBias(product, bias, out);
    }

    private void addBias(String product, String bias, String out) {
        if (bias != null) {
            g.node("Add", new String[] {product, bias}, new String[] {out});
        }
    }

    private float eps() {
        return (float) c.rmsNormEps();
    }
}
