package dev.crucible.runtime.tools;

import dev.crucible.runtime.generation.stopping.FinishReason;
import java.util.List;
import java.util.Objects;

/**
 * How one request's output becomes tool calls, and whether parallel calls are kept. Under {@code tool_choice: "auto"}
 * the model's own call format is parsed; under a named choice or {@code "required"} generation was constrained to
 * vLLM's tool-choice schema, so the output is the call's arguments, or a JSON array of
 * {@code {"name", "parameters"}} calls. With {@code parallel_tool_calls: false} only the first call is kept, as vLLM's
 * {@code maybe_filter_parallel_tool_calls} does. Immutable.
 *
 * @param source            where the calls come from
 * @param parallelToolCalls false to keep only the first call
 */
public record ToolCalling(Source source, boolean parallelToolCalls) {

    public ToolCalling {
        Objects.requireNonNull(source, "source");
    }

    /** Where a request's calls come from. */
    public sealed interface Source permits Written, Named, Required {
    }

    /** {@code tool_choice: "auto"}: calls the model writes in its own format, found by that format's parser. */
    public record Written(ToolCallFormat format) implements Source {
        public Written {
            Objects.requireNonNull(format, "format");
        }
    }

    /** A named {@code tool_choice}: the whole output is the arguments of one call to this function. */
    public record Named(String name) implements Source {
        public Named {
            Objects.requireNonNull(name, "name");
        }
    }

    /** {@code tool_choice: "required"}: the output is a non-empty JSON array of {@code {"name", "parameters"}}. */
    public record Required() implements Source {
    }

    /** Parsing of calls written in {@code format} ({@code tool_choice: "auto"}). */
    public static ToolCalling auto(ToolCallFormat format, boolean parallelToolCalls) {
        return new ToolCalling(new Written(format), parallelToolCalls);
    }

    /** A finished choice's content and calls. */
    public ToolCallOutput extract(String text) {
        ToolCallOutput out = switch (source) {
            case Written written -> written.format().extract(text);
            case Named named -> ForcedToolCalls.named(named.name(), text);
            case Required required -> ForcedToolCalls.required(text);
        };
        return parallelToolCalls || out.calls().size() <= 1 ? out
                : new ToolCallOutput(out.content(), List.of(out.calls().getFirst()));
    }

    /** A stream splitter for one choice. */
    public ToolCallStream stream() {
        ToolCallStream inner = switch (source) {
            case Written written -> written.format().stream();
            case Named named -> ForcedToolCalls.namedStream(named.name());
            case Required required -> ForcedToolCalls.requiredStream();
        };
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

    /**
     * vLLM's {@code finish_reason} for a choice that ended with {@code reason}: {@code tool_calls} when calls were
     * made under {@code "auto"} (in a response whatever ended generation, in a stream only a stop) or under
     * {@code "required"} (after a stop); a named choice keeps the engine's reason, as OpenAI reports it.
     *
     * @param called   whether the choice made a call (parsed, or streamed)
     * @param streamed whether the answer is an SSE stream
     */
    public String finishReason(FinishReason reason, boolean called, boolean streamed) {
        boolean toolCalls = switch (source) {
            case Written written -> called && (!streamed || reason == FinishReason.STOP);
            case Required required -> called && reason == FinishReason.STOP;
            case Named named -> false;
        };
        return toolCalls ? "tool_calls" : reason.wireName();
    }
}
