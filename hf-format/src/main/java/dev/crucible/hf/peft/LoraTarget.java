package dev.crucible.hf.peft;

import dev.crucible.hf.config.ModelConfig;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * A linear projection of a Llama/Qwen2/Qwen3 causal LM that a LoRA adapter can adapt, under the module name PEFT's
 * {@code target_modules} uses: the seven projections of every decoder layer and, once per model, the unembedding
 * {@code lm_head} (PEFT wraps the head's Linear even when its weight is tied to the embedding; the base weight stays
 * frozen). Each knows its place and its {@code [out, in]} shape. The head has one instance, stored and addressed as
 * layer 0 ({@link #inLayer}).
 */
public enum LoraTarget {
    Q_PROJ("q_proj", "self_attn."),
    K_PROJ("k_proj", "self_attn."),
    V_PROJ("v_proj", "self_attn."),
    O_PROJ("o_proj", "self_attn."),
    GATE_PROJ("gate_proj", "mlp."),
    UP_PROJ("up_proj", "mlp."),
    DOWN_PROJ("down_proj", "mlp."),
    LM_HEAD("lm_head", null);

    private final String module;
    private final String parent;

    LoraTarget(String module, String parent) {
        this.module = module;
        this.parent = parent;
    }

    /** The name in {@code target_modules}, e.g. {@code q_proj}. */
    public String module() {
        return module;
    }

    /** The seven projections of a decoder layer (every target but {@link #LM_HEAD}), in declaration order. */
    public static Set<LoraTarget> layerProjections() {
        return EnumSet.range(Q_PROJ, DOWN_PROJ);
    }

    /**
     * Whether this target has an instance at index {@code layer} of the {@code [layer][target]} arrays adapters are
     * kept in: a layer projection in every layer, the head (one per model) at index 0 only.
     */
    public boolean inLayer(int layer) {
        return this != LM_HEAD || layer == 0;
    }

    /** How many instances of this target a model of {@code c} has: one per layer, or one for the head. */
    public int instances(ModelConfig c) {
        return this == LM_HEAD ? 1 : c.numHiddenLayers();
    }

    /** The target named {@code module} in {@code target_modules}; empty for a module this enum does not know. */
    public static Optional<LoraTarget> of(String module) {
        return Arrays.stream(values()).filter(t -> t.module.equals(module)).findFirst();
    }

    /** The projection's input features: {@code in} of its {@code [out, in]} weight. */
    public int inFeatures(ModelConfig c) {
        return switch (this) {
            case Q_PROJ, K_PROJ, V_PROJ, GATE_PROJ, UP_PROJ, LM_HEAD -> c.hiddenSize();
            case O_PROJ -> c.queryDim();
            case DOWN_PROJ -> c.intermediateSize();
        };
    }

    /** The projection's output features: {@code out} of its {@code [out, in]} weight. */
    public int outFeatures(ModelConfig c) {
        return switch (this) {
            case Q_PROJ -> c.queryDim();
            case K_PROJ, V_PROJ -> c.keyValueDim();
            case O_PROJ, DOWN_PROJ -> c.hiddenSize();
            case GATE_PROJ, UP_PROJ -> c.intermediateSize();
            case LM_HEAD -> c.vocabSize();
        };
    }

    /**
     * The PEFT tensor name of this target's LoRA matrix in layer {@code layer}, e.g.
     * {@code base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight}, or for the head (layer 0)
     * {@code base_model.model.lm_head.lora_A.weight}.
     *
     * @param matrix {@code "A"} ({@code [r, in]}) or {@code "B"} ({@code [out, r]})
     * @throws IllegalArgumentException for the head at a layer other than 0
     */
    public String tensorName(int layer, String matrix) {
        if (this == LM_HEAD) {
            if (layer != 0) {
                throw new IllegalArgumentException("lm_head has one instance, at layer 0, got layer " + layer);
            }
            return "base_model.model.lm_head.lora_" + matrix + ".weight";
        }
        return "base_model.model.model.layers." + layer + "." + parent + module + ".lora_" + matrix + ".weight";
    }
}
