package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.chat.ask.ChatTools;
import dev.crucible.application.inference.chat.ask.ToolChoice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON schema vLLM constrains output to when {@code tool_choice} forces a call: for a named function, its
 * {@code parameters} (the output is the call's arguments object); for {@code "required"}, a non-empty array of
 * {@code {"name": <one of the tools>, "parameters": <its parameters>}} items. Each tool's {@code $defs} move to the
 * top of the schema so its local {@code $ref}s still resolve. A tool without {@code parameters} takes an empty
 * object. Stateless.
 */
final class ToolChoiceSchemas {

    private ToolChoiceSchemas() {
    }

    /** The schema, or empty when the choice forces no call ({@code none}, {@code auto}). */
    static Optional<Map<String, Object>> of(ChatTools tools) {
        List<Map<String, Object>> functions = tools.tools().orElse(List.of()).stream()
                .map(t -> t.get("function") instanceof Map<?, ?> f ? cast(f) : Map.<String, Object>of()).toList();
        return switch (tools.toolChoice()) {
            case ToolChoice.None none -> Optional.empty();
            case ToolChoice.Auto auto -> Optional.empty();
            case ToolChoice.Named named -> functions.stream().filter(f -> named.name().equals(f.get("name")))
                    .findFirst().map(ToolChoiceSchemas::parameters);
            case ToolChoice.Required required -> Optional.of(required(functions));
        };
    }

    private static Map<String, Object> required(List<Map<String, Object>> functions) {
        Map<String, Object> defs = new LinkedHashMap<>();
        List<Object> calls = new ArrayList<>();
        for (Map<String, Object> function : functions) {
            Map<String, Object> parameters = new LinkedHashMap<>(parameters(function));
            if (parameters.remove("$defs") instanceof Map<?, ?> own) {
                defs.putAll(cast(own));
            }
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("name", Map.of("type", "string", "enum", List.of(String.valueOf(function.get("name")))));
            properties.put("parameters", parameters);
            calls.add(Map.of("properties", properties, "required", List.of("name", "parameters")));
        }
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "array");
        schema.put("minItems", 1);
        schema.put("items", Map.of("type", "object", "anyOf", calls));
        if (!defs.isEmpty()) {
            schema.put("$defs", defs);
        }
        return schema;
    }

    private static Map<String, Object> parameters(Map<String, Object> function) {
        return function.get("parameters") instanceof Map<?, ?> p ? cast(p)
                : Map.of("type", "object", "properties", Map.of());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }
}
