package dev.crucible.application.inference.tools;

import java.util.List;
import java.util.Objects;

/**
 * Tool-call parsing for one request ({@code tool_choice: "auto"} with tools, on a model with a parser): the model's
 * format and whether parallel calls are kept. With {@code parallel_tool_calls: false} only the first call is kept,
 * as vLLM's {@code maybe_filter_parallel_tool_calls} does. Immutable.
 */
public record ToolCalling(ToolCallFormat format, boolean parallelToolCalls) {

    public ToolCalling {
        Objects.requireNonNull(format, "format");
    }

    /** A finished choice's content and calls. */
    public ToolCallOutput extract(String text) {
        ToolCallOutput out = format.extract(text);
        return parallelToolCalls || out.calls().size() <= 1 ? out
                : new ToolCallOutput(out.content(), List.of(out.calls().getFirst()));
    }

    /** A stream splitter for one choice. */
    public ToolCallStream stream() {
        ToolCallStream inner = format.stream();
        if (parallelToolCalls) {
            return inner;
        }
        return new ToolCallStream() {
            @Override
            public ToolStreamDelta next(String text, boolean finished) {
                ToolStreamDelta d = inner.next(text, finished);
                return new ToolStreamDelta(d.content(), d.calls().stream().filter(c -> c.index() == 0).toList());
            }

            @Override
            public boolean calledTools() {
                return inner.calledTools();
            }
        };
    }
}
