package dev.crucible.runtime.tools;

import dev.crucible.hf.config.Architecture;
import java.util.Locale;
import java.util.Optional;

/**
 * How a model writes tool calls, named after the vLLM {@code --tool-call-parser} that reads them. Crucible picks it
 * from the model: a chat template that mentions {@code <tool_call>} (Qwen2.5, Qwen3, Hermes) is {@link #HERMES}, as
 * vLLM's recipes for those models use; a Llama model whose template speaks of {@code <|python_tag|>} or the
 * {@code ipython} role (Llama 3.1+) is {@link #LLAMA3_JSON}; any other model has no parser, so it serves only
 * {@code tool_choice: "none"}.
 */
public enum ToolCallFormat {

    /** {@code <tool_call>{"name": …, "arguments": …}</tool_call>}. */
    HERMES,
    /** {@code {"name": …, "parameters": …}}, optionally after {@code <|python_tag|>}, several joined by {@code ;}. */
    LLAMA3_JSON;

    /** vLLM's name for the parser: the constant's name in lower case ({@code hermes}, {@code llama3_json}). */
    public String parserName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The format of a model with this architecture and chat template, if Crucible can parse its calls. */
    public static Optional<ToolCallFormat> of(Architecture architecture, Optional<String> chatTemplate) {
        String template = chatTemplate.orElse("");
        if (template.contains(HermesToolCalls.START)) {
            return Optional.of(HERMES);
        }
        if (architecture == Architecture.LLAMA && (template.contains(Llama3JsonToolCalls.BOT)
                || template.contains("ipython"))) {
            return Optional.of(LLAMA3_JSON);
        }
        return Optional.empty();
    }

    /** Splits a finished choice's text into content and calls. */
    public ToolCallOutput extract(String text) {
        return switch (this) {
            case HERMES -> HermesToolCalls.extract(text);
            case LLAMA3_JSON -> Llama3JsonToolCalls.extract(text);
        };
    }

    /** A new stream splitter for one choice. */
    public ToolCallStream stream() {
        return switch (this) {
            case HERMES -> HermesToolCalls.stream();
            case LLAMA3_JSON -> Llama3JsonToolCalls.stream();
        };
    }
}
