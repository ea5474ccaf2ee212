package dev.crucible.application.inference.chat.answer;

import java.util.Objects;
import java.util.Optional;

/**
 * A streamed piece of a tool call: the call's id and name on its first piece, then more of its argument text.
 *
 * @param index the call's position among the choice's calls
 */
public record ChatToolCallDelta(int index, Optional<String> id, Optional<String> name, String arguments) {

    public ChatToolCallDelta {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
    }
}
