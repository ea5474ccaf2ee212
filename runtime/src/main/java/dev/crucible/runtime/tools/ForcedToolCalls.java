package dev.crucible.runtime.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Calls a {@code tool_choice} forced by constraining generation, read as vLLM's chat server reads them. Content is
 * {@code ""} once calls are made, as in vLLM.
 *
 * <p>Named function: the output is the arguments object, passed on verbatim as the one call's {@code arguments}
 * (vLLM does not re-serialise it). Streamed, the first piece carries the id, the name and the first text; every
 * later piece is the new text.
 *
 * <p>{@code "required"}: the output is a JSON array of {@code {"name", "parameters"}} objects; each becomes a call
 * whose arguments are Python's {@code json.dumps(parameters, ensure_ascii=False)}. Output that is not such an array
 * (cut off by {@code max_tokens}) makes no calls and stays content. Streamed, the growing array is parsed: a call's
 * first piece (id, name, its array index) goes out once its name is complete, then its arguments as they grow,
 * rendered so that the pieces concatenate to the same string as the non-streamed arguments.
 */
final class ForcedToolCalls {

    /** A forced call's arguments stand under {@code parameters}. */
    private static final CallProgress.Arguments ARGUMENTS = new CallProgress.Arguments("parameters", null, false);

    private ForcedToolCalls() {
    }

    static ToolCallOutput named(String name, String text) {
        return new ToolCallOutput(Optional.of(""), List.of(ToolCall.of(name, text)));
    }

    static ToolCallOutput required(String text) {
        return PartialJson.loads(text).flatMap(v -> calls(v.value()))
                .map(calls -> new ToolCallOutput(Optional.of(""), calls))
                .orElseGet(() -> ToolCallOutput.none(text));
    }

    /** The calls of a parsed array, or empty when it is not a list of {@code {name: str, parameters: object}}. */
    private static Optional<List<ToolCall>> calls(Object value) {
        if (!(value instanceof List<?> items)) {
            return Optional.empty();
        }
        List<ToolCall> calls = new ArrayList<>();
        for (Object item : items) {
            if (!(item instanceof Map<?, ?> call) || !(call.get("name") instanceof String name)) {
                return Optional.empty();
            }
            Object parameters = call.get("parameters");
            if (parameters != null && !(parameters instanceof Map<?, ?>)) {
                return Optional.empty();
            }
            calls.add(ToolCall.of(name, PartialJson.dumps(false).dumps(parameters)));
        }
        return Optional.of(calls);
    }

    static ToolCallStream namedStream(String name) {
        return new ToolCallStream() {
            private boolean called;

            @Override
            public ToolStreamDelta next(String text, boolean finished) {
                if (!called) {
                    called = true;
                    return new ToolStreamDelta("", List.of(new ToolCallDelta(0, Optional.of(ToolCall.newId()),
                            Optional.of(name), text)));
                }
                return new ToolStreamDelta("", text.isEmpty() ? List.of()
                        : List.of(new ToolCallDelta(0, Optional.empty(), Optional.empty(), text)));
            }

            @Override
            public boolean calledTools() {
                return called;
            }
        };
    }

    static ToolCallStream requiredStream() {
        return new RequiredStream();
    }

    private static final class RequiredStream implements ToolCallStream {

        private final StringBuilder text = new StringBuilder();
        private final List<CallProgress> calls = new ArrayList<>();

        @Override
        public ToolStreamDelta next(String delta, boolean finished) {
            text.append(delta);
            List<ToolCallDelta> pieces = new ArrayList<>();
            if (PartialJson.parse(text.toString(), 0).node().orElse(null) instanceof PartialJson.Arr array) {
                for (int i = 0; i < array.items().size(); i++) {
                    if (!(array.items().get(i) instanceof PartialJson.Obj call)) {
                        break;
                    }
                    if (calls.size() == i) {
                        calls.add(new CallProgress(i, ARGUMENTS));
                    }
                    pieces.addAll(calls.get(i).advance(call));
                }
            }
            return new ToolStreamDelta("", pieces);
        }

        @Override
        public boolean calledTools() {
            return calls.stream().anyMatch(CallProgress::nameSent);
        }
    }
}
