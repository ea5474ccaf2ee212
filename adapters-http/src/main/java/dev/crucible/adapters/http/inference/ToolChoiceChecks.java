package dev.crucible.adapters.http.inference;

import dev.crucible.kernel.python.PythonRepr;
import dev.crucible.kernel.python.PythonTruth;
import java.util.List;
import java.util.Map;

/**
 * vLLM's tool-choice rules: {@code check_tool_usage}, a protocol validator on the raw body. {@code "auto"} is served
 * when the model has a tool-call parser (the chat use case checks that, since it depends on the model);
 * {@code "required"} and named choices are served on any model, by constraining generation to a call.
 */
final class ToolChoiceChecks {

    private static final String USAGE = "Correct usage: `{\"type\": \"function\", \"function\": {\"name\": "
            + "\"my_function\"}}`";

    private ToolChoiceChecks() {
    }

    /** {@code check_tool_usage}: an absent or null choice becomes "auto" when tools are sent. */
    static void usage(ChatFields body) {
        Object choice = body.get("tool_choice");
        if (choice == null && PythonTruth.of(body.get("tools"))) {
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

    /** Python's {@code str()} of a value in an f-string. */
    private static String str(Object value) {
        return value instanceof String s ? s : PythonRepr.of(value);
    }
}
