package dev.crucible.application.inference.chat.ask;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The tool fields of a chat request.
 *
 * @param tools             the tool schemas ({@code {"type": "function", "function": {"name", …}}}), empty for none;
 *                          handed to the template even when the choice is none
 * @param toolChoice        what the model may do with them
 * @param parallelToolCalls true by default
 */
public record ChatTools(Optional<List<Map<String, Object>>> tools, ToolChoice toolChoice, boolean parallelToolCalls) {

    public ChatTools {
        tools = Objects.requireNonNull(tools, "tools").map(JsonCopies::maps);
        Objects.requireNonNull(toolChoice, "toolChoice");
    }

    /** No tools, choice none. */
    public static ChatTools defaults() {
        return new ChatTools(Optional.empty(), new ToolChoice.None(), true);
    }
}
