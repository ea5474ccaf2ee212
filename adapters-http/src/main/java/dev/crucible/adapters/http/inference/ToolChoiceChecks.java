package dev.crucible.adapters.http.inference;

import dev.crucible.application.inference.chat.ToolChoice;
import java.util.List;
import java.util.Map;

/**
 * vLLM's tool-choice rules: {@code check_tool_usage} (a protocol validator on the raw body) and the renderer's
 * refusals. {@code "auto"} is served when the model has a tool-call parser (the chat use case checks that, since it
 * depends on the model). {@code "required"} and named choices need a structured-output constraint that forces a
 * call; until the generation loop has one they are refused here with vLLM's no-parser messages.
 */
final class ToolChoiceChecks {

    private static final String USAGE = "Correct usage: `{\"type\": \"function\", \"function\": {\"name\": "
            + "\"my_function\"}}`";

    private ToolChoiceChecks() {
    }

    /** {@code check_tool_usage}: an absent or null choice becomes "auto" when tools are sent. */
    static void usage(ChatFields body) {
        Object choice = body.get("tool_choice");
        if (choice == null && Truthy.of(body.get("tools"))) {
            choice = "auto";
        }
        if (choice == null || "none".equals(choice)) {
            return;
        }
        if (body.get("tools") == null) {
            throw ProtocolChecks.fail("tool_choice", "When using `tool_choice`, `tools` must be set.");
        }
        if (!"auto".equals(choice) && !"required".equals(choice) && !(choice instanceof Map<?, ?>)) {
            throw ProtocolChecks.fail("tool_choice", "Invalid value for `tool_choice`: " + str(choice)
                    + "! Only named tools, \"none\", \"auto\" or \"required\" are supported.");
        }
        if (choice instanceof Map<?, ?> named) {
            named(named, body.get("tools"));
        }
    }

    private static void named(Map<?, ?> choice, Object tools) {
        if (!(choice.get("function") instanceof Map<?, ?> function)) {
            throw ProtocolChecks.fail("tool_choice", "Invalid value for `function`: `" + str(choice.get("function"))
                    + "` in `tool_choice`! " + USAGE);
        }
        if (!function.containsKey("name")) {
            throw ProtocolChecks.fail("tool_choice", "Expected field `name` in `function` in `tool_choice`! " + USAGE);
        }
        Object name = function.get("name");
        if (!(name instanceof String s) || s.isEmpty()) {
            throw ProtocolChecks.fail("tool_choice", "Invalid `name` in `function`: `" + str(name)
                    + "` in `tool_choice`! " + USAGE);
        }
        boolean known = tools instanceof List<?> list && list.stream().anyMatch(tool -> tool instanceof Map<?, ?> t
                && t.get("function") instanceof Map<?, ?> f && name.equals(f.get("name")));
        if (!known) {
            throw ProtocolChecks.fail("tool_choice",
                    "The tool specified in `tool_choice` does not match any of the specified `tools`");
        }
    }

    /** The renderer's check for the choices that need a constraint; "none" and "auto" pass. */
    static void supported(ToolChoice choice) {
        switch (choice) {
            case ToolChoice.None none -> { }
            case ToolChoice.Auto auto -> { }
            case ToolChoice.Required required -> throw ProtocolChecks.fail("tool_choice",
                    "tool_choice=\"required\" requires --tool-call-parser to be set");
            case ToolChoice.Named named -> throw ProtocolChecks.fail("tool_choice",
                    "tool_choice=function \"" + named.name() + "\" requires --tool-call-parser to be set");
        }
    }

    /** Python's {@code str()} of a value in an f-string. */
    private static String str(Object value) {
        return value instanceof String s ? s : PythonRepr.of(value);
    }
}
