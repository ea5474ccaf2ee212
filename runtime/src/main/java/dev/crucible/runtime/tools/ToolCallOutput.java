package dev.crucible.runtime.tools;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A finished choice's text split into content and tool calls.
 *
 * @param content the text the message keeps; empty where vLLM writes {@code content: null}
 * @param calls   the calls found, none when the model called no tool (then {@code content} is the whole text)
 */
public record ToolCallOutput(Optional<String> content, List<ToolCall> calls) {

    public ToolCallOutput {
        Objects.requireNonNull(content, "content");
        calls = List.copyOf(calls);
    }

    /** No tool called: the text is all content. */
    static ToolCallOutput none(String text) {
        return new ToolCallOutput(Optional.of(text), List.of());
    }

    /** Whether the model called at least one tool. */
    public boolean called() {
        return !calls.isEmpty();
    }
}
