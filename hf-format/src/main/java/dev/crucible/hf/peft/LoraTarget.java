package dev.crucible.hf.peft;

import dev.crucible.hf.config.ModelConfig;
import java.util.Arrays;
import java.util.Optional;

/**
 * A linear projection of a Llama/Qwen2/Qwen3 decoder layer that a LoRA adapter can adapt, under the module name PEFT's
 * {@code target_modules} uses. Each knows its place in the layer and its {@code [out, in]} shape.
 */
public enum LoraTarget {
    Q_PROJ("q_proj", "self_attn."),
    K_PROJ("k_proj", "self_attn."),
    V_PROJ("v_proj", "self_attn."),
    O_PROJ("o_proj", "self_attn."),
    GATE_PROJ("gate_proj", "mlp."),
    UP_PROJ("up_proj", "mlp."),
    DOWN_PROJ("down_proj", "mlp.");

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

    /** The target named {@code module} in {@code target_modules}; empty for a module this enum does not know. */
    public static Optional<LoraTarget> of(String module) {
        return Arrays.stream(values()).filter(t -> t.module.equals(module)).findFirst();
    }

    /** The projection's input features: {@code in} of its {@code [out, in]} weight. */
    public int inFeatures(ModelConfig c) {
        return switch (this) {
            case Q_PROJ, K_PROJ, V_PROJ, GATE_PROJ, UP_PROJ -> c.hiddenSize();
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
        };
    }

    /**
     * The PEFT tensor name of this target's LoRA matrix in layer {@code layer}, e.g.
     * {@code base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight}.
     *
     * @param matrix {@code "A"} ({@code [r, in]}) or {@code "B"} ({@code [out, r]})
     */
    public String tensorName(int layer, String matrix) {
        return "base_model.model.model.layers." + layer + "." + parent + module + ".lora_" + matrix + ".weight";
    }
}
