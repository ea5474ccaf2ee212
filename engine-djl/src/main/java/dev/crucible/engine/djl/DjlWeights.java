package dev.crucible.engine.djl;

import ai.djl.ndarray.NDArray;
import dev.crucible.hf.config.ModelConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * A decoder-only model's weights under their Hugging Face names. With tied embeddings the head is the embedding
 * matrix itself (an {@code lm_head.weight} in the file is then ignored, as transformers ties it). Both are held in
 * parts of rows when they reach 2 GiB ({@link DjlRowParts}).
 */
record DjlWeights(DjlRowParts embed, List<DjlLayer> layers, NDArray finalNorm, DjlRowParts lmHead) {

    DjlWeights {
        layers = List.copyOf(layers);
    }

    static DjlWeights load(ModelConfig c, DjlTensors t) {
        long h = c.hiddenSize();
        DjlRowParts embed = t.loadRows("model.embed_tokens.weight", c.vocabSize(), h);
        List<DjlLayer> layers = new ArrayList<>();
        for (int i = 0; i < c.numHiddenLayers(); i++) {
            String p = "model.layers." + i + ".";
            String a = p + "self_attn.";
            long q = c.queryDim();
            long kv = c.keyValueDim();
            long d = c.headDim();
            layers.add(new DjlLayer(t.load(p + "input_layernorm.weight", h),
                    t.load(a + "q_proj.weight", q, h), t.loadIf(c.qkvBias(), a + "q_proj.bias", q),
                    t.load(a + "k_proj.weight", kv, h), t.loadIf(c.qkvBias(), a + "k_proj.bias", kv),
                    t.load(a + "v_proj.weight", kv, h), t.loadIf(c.qkvBias(), a + "v_proj.bias", kv),
                    t.load(a + "o_proj.weight", h, q), t.loadIf(c.outputBias(), a + "o_proj.bias", h),
                    t.loadIf(c.qkNorm(), a + "q_norm.weight", d), t.loadIf(c.qkNorm(), a + "k_norm.weight", d),
                    t.load(p + "post_attention_layernorm.weight", h),
                    t.load(p + "mlp.gate_proj.weight", c.intermediateSize(), h),
                    t.load(p + "mlp.up_proj.weight", c.intermediateSize(), h),
                    t.load(p + "mlp.down_proj.weight", h, c.intermediateSize())));
        }
        NDArray norm = t.load("model.norm.weight", h);
        DjlRowParts head = c.tieWordEmbeddings() ? embed : t.loadRows("lm_head.weight", c.vocabSize(), h);
        return new DjlWeights(embed, layers, norm, head);
    }
}
