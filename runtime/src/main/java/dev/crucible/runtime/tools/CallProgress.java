package dev.crucible.runtime.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How far one streamed tool call has been sent: its first piece (id and name) once the name is complete, then each
 * time the arguments have grown, the new part of their rendering. The rendering of unfinished JSON is a prefix of the
 * finished rendering ({@link PartialJson#render}), so the pieces concatenate to the finished arguments string. Not
 * thread-safe.
 */
final class CallProgress {

    /**
     * Where a dialect puts a call's arguments and how it renders them: under {@code key}, else under
     * {@code fallbackKey} (null for none), as JSON with or without {@code ensure_ascii}.
     */
    record Arguments(String key, String fallbackKey, boolean ensureAscii) {

        /** The rendering of the call's arguments as parsed so far, if it has any yet. */
        Optional<String> rendered(PartialJson.Obj call) {
            Optional<PartialJson.Node> arguments = call.get(key);
            if (arguments.isEmpty() && fallbackKey != null) {
                arguments = call.get(fallbackKey);
            }
            return arguments.map(a -> PartialJson.render(a, ensureAscii));
        }
    }

    private final int index;
    private final Arguments arguments;
    private boolean nameSent;
    private String sent = "";

    CallProgress(int index, Arguments arguments) {
        this.index = index;
        this.arguments = arguments;
    }

    boolean nameSent() {
        return nameSent;
    }

    /** The pieces the call's object, as parsed so far, adds to what was sent. */
    List<ToolCallDelta> advance(PartialJson.Obj call) {
        List<ToolCallDelta> out = new ArrayList<>();
        if (!nameSent) {
            Optional<String> name = call.get("name").filter(n -> n instanceof PartialJson.Str s && s.complete())
                    .map(n -> ((PartialJson.Str) n).value());
            if (name.isEmpty()) {
                return out;
            }
            nameSent = true;
            out.add(new ToolCallDelta(index, Optional.of(ToolCall.newId()), name, ""));
        }
        arguments.rendered(call).ifPresent(rendered -> {
            if (rendered.length() > sent.length() && rendered.startsWith(sent)) {
                out.add(new ToolCallDelta(index, Optional.empty(), Optional.empty(), rendered.substring(sent.length())));
                sent = rendered;
            }
        });
        return out;
    }
}
