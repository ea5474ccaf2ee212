package dev.crucible.hf.tiny;

import dev.crucible.hf.config.Architecture;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tensors each tiny model must have, written out by hand from the transformers modelling code (names and
 * {@code [out, in]} shapes) rather than derived from the code under test.
 */
final class TinyShapes {

    private TinyShapes() {
    }

    static Map<String, List<Long>> expected(Architecture arch) {
        long v = 768;
        long q = arch == Architecture.QWEN3 ? 128 : 64;
        long kv = arch == Architecture.QWEN3 ? 64 : 32;
        Map<String, List<Long>> m = new LinkedHashMap<>();
        m.put("model.embed_tokens.weight", List.of(v, 64L));
        for (int i = 0; i < 2; i++) {
            String p = "model.layers." + i + ".";
            m.put(p + "input_layernorm.weight", List.of(64L));
            m.put(p + "post_attention_layernorm.weight", List.of(64L));
            m.put(p + "self_attn.q_proj.weight", List.of(q, 64L));
            m.put(p + "self_attn.k_proj.weight", List.of(kv, 64L));
            m.put(p + "self_attn.v_proj.weight", List.of(kv, 64L));
            m.put(p + "self_attn.o_proj.weight", List.of(64L, q));
            m.put(p + "mlp.gate_proj.weight", List.of(128L, 64L));
            m.put(p + "mlp.up_proj.weight", List.of(128L, 64L));
            m.put(p + "mlp.down_proj.weight", List.of(64L, 128L));
            if (arch == Architecture.QWEN2) {
                m.put(p + "self_attn.q_proj.bias", List.of(q));
                m.put(p + "self_attn.k_proj.bias", List.of(kv));
                m.put(p + "self_attn.v_proj.bias", List.of(kv));
            }
            if (arch == Architecture.QWEN3) {
                m.put(p + "self_attn.q_norm.weight", List.of(32L));
                m.put(p + "self_attn.k_norm.weight", List.of(32L));
            }
        }
        m.put("model.norm.weight", List.of(64L));
        if (arch == Architecture.LLAMA) {
            m.put("lm_head.weight", List.of(v, 64L));
        }
        return m;
    }
}
