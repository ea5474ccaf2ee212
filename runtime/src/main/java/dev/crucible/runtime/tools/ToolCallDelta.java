package dev.crucible.runtime.tools;

import java.util.Objects;
import java.util.Optional;

/**
 * A streamed piece of a tool call, as vLLM's {@code DeltaToolCall}: the first piece of each call carries its id and
 * name (its type is {@code function}); later pieces carry argument text. Per call the {@code arguments} of all pieces
 * concatenate to the call's arguments string.
 *
 * @param index     which call of the choice, from 0
 * @param id        present on the call's first piece only
 * @param name      present on the call's first piece only
 * @param arguments the new argument text, possibly empty
 */
public record ToolCallDelta(int index, Optional<String> id, Optional<String> name, String arguments) {

    public ToolCallDelta {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
    }

    /** Whether this is a call's first piece (id, type and name). */
    public boolean first() {
        return id.isPresent();
    }
}
