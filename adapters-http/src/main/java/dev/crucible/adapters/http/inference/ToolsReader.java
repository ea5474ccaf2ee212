package dev.crucible.adapters.http.inference;

import dev.crucible.application.inference.chat.ask.ChatTools;
import dev.crucible.application.inference.chat.ask.ToolChoice;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads {@code tools} (each {@code {"type": "function", "function": {"name", …}}}, never an empty list) and
 * {@code tool_choice}, after {@link ToolChoiceChecks#usage} has checked their consistency: an absent or null choice
 * is "auto" when tools are sent, and "required" with an empty tool list is "none" without tools, as in vLLM.
 */
final class ToolsReader {

    private ToolsReader() {
    }

    static ChatTools read(ChatFields f) {
        boolean parallel = f.bool("parallel_tool_calls", true);
        Object choice = f.get("tool_choice");
        if ("required".equals(choice) && f.get("tools") instanceof List<?> l && l.isEmpty()) {
            return new ChatTools(Optional.empty(), new ToolChoice.None(), parallel);
        }
        Optional<List<Map<String, Object>>> tools = f.elements("tools", ToolsReader::tool);
        if (tools.isPresent() && tools.get().isEmpty()) {
            throw ProtocolChecks.fail("tools", "`tools` must not be an empty array. Either provide at least one tool "
                    + "or omit the field entirely.");
        }
        return new ChatTools(tools, choice(f, choice, tools.isPresent()), parallel);
    }

    private static ToolChoice choice(ChatFields f, Object choice, boolean hasTools) {
        if (choice == null) {
            return hasTools ? new ToolChoice.Auto() : new ToolChoice.None();
        }
        if (choice instanceof Map<?, ?> named && named.get("function") instanceof Map<?, ?> fn
                && fn.get("name") instanceof String name) {
            return new ToolChoice.Named(name);
        }
        return switch (choice instanceof String s ? s : "") {
            case "none" -> new ToolChoice.None();
            case "auto" -> new ToolChoice.Auto();
            case "required" -> new ToolChoice.Required();
            default -> throw SchemaError.of(f.loc("tool_choice"), "literal_error",
                    "Input should be 'none', 'auto' or 'required'", choice);
        };
    }

    private static Map<String, Object> tool(Object item, List<Object> at) {
        ChatFields tool = new ChatFields(LaxValues.asObject(item, at), at);
        String type = tool.string("type").orElse("function");
        if (!"function".equals(type)) {
            throw SchemaError.of(tool.loc("type"), "literal_error", "Input should be 'function'", type,
                    SchemaError.ctx("expected", "'function'"));
        }
        if (!tool.has("function")) {
            throw tool.missing("function");
        }
        ChatFields function = tool.child("function").orElseThrow();
        if (!function.has("name")) {
            throw function.missing("name");
        }
        function.string("name");
        function.string("description");
        function.object("parameters");
        function.bool("strict");
        return tool.raw();
    }
}
