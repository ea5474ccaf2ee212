package dev.crucible.hf.config;

import dev.crucible.hf.ModelFormatException;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The decoder-only architectures Crucible loads, by their transformers class name and {@code model_type}. */
public enum Architecture {
    /** Llama 2/3 ({@code LlamaForCausalLM}): optional attention bias, Llama 3 rope scaling. */
    LLAMA("LlamaForCausalLM"),
    /** Qwen2 and Qwen2.5 ({@code Qwen2ForCausalLM}): q/k/v projections always carry a bias. */
    QWEN2("Qwen2ForCausalLM"),
    /** Qwen3 dense ({@code Qwen3ForCausalLM}): RMS norms on queries and keys, an explicit head_dim. */
    QWEN3("Qwen3ForCausalLM");

    private final String className;

    Architecture(String className) {
        this.className = className;
    }

    /** The transformers class name written in {@code config.json}'s {@code architectures}. */
    public String className() {
        return className;
    }

    /**
     * The {@code model_type} written in {@code config.json} (also the name on the command line): the constant's name in
     * lower case.
     */
    public String modelType() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The architecture of a transformers class name; an unknown one fails naming it and the supported ones. */
    public static Architecture fromClassName(String className) {
        return find("architecture", Architecture::className, className);
    }

    /** The architecture of a {@code model_type}; an unknown one fails naming it and the supported ones. */
    public static Architecture fromModelType(String modelType) {
        return find("model_type", Architecture::modelType, modelType);
    }

    private static Architecture find(String what, Function<Architecture, String> name, String wanted) {
        return Arrays.stream(values()).filter(a -> name.apply(a).equals(wanted)).findFirst()
                .orElseThrow(() -> new ModelFormatException("unsupported " + what + " '" + wanted + "' (supported: "
                        + Arrays.stream(values()).map(name).collect(Collectors.joining(", ")) + ")"));
    }
}
