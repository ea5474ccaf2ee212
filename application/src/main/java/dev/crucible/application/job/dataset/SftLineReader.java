package dev.crucible.application.job.dataset;

import dev.crucible.domain.job.SftExample;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import java.util.Map;

/**
 * Reads one parsed line of an SFT dataset ({@code {"messages": [...], "tools": [...]}}, OpenAI's chat
 * fine-tuning format) into an {@link SftExample}. Every refusal names the line ({@code training data line 3: ...})
 * and the field inside it; keys the rules do not know are kept as they are, for the chat template.
 */
public final class SftLineReader {

    static final String PARAM = "training_data_url";
    /** The message roles OpenAI's chat format knows. */
    static final List<String> ROLES = List.of("system", "developer", "user", "assistant", "tool");

    private final int line;

    private SftLineReader(int line) {
        this.line = line;
    }

    /** Thrown inside a read and turned into a refusal by {@link #read}; never escapes it. */
    private static final class Stop extends RuntimeException {
        private final transient Refusal refusal;

        Stop(Refusal refusal) {
            super(refusal.message(), null, false, false);
            this.refusal = refusal;
        }
    }

    /** Reads line {@code line} (1-based), already parsed as JSON into {@code json}. */
    public static Outcome<SftExample> read(int line, Object json) {
        try {
            return Outcome.done(new SftLineReader(line).example(json));
        } catch (Stop stop) {
            return Outcome.refused(stop.refusal);
        }
    }

    /** The refusal {@code training data line <line>: <problem>}, naming {@code training_data_url}. */
    static Refusal refusal(int line, String problem) {
        return Refusal.invalid(PARAM, "training data line " + line + ": " + problem);
    }

    private Stop fail(String problem) {
        return new Stop(refusal(line, problem));
    }

    private SftExample example(Object json) {
        if (!(json instanceof Map<?, ?> object)) {
            throw fail("must be a JSON object with messages and optional tools, got " + JsonReader.describe(json));
        }
        Object rawMessages = object.get("messages");
        List<Map<String, Object>> messages = objects(rawMessages, "messages", "messages must be a non-empty list"
                + (rawMessages == null ? "" : ", got " + JsonReader.describe(rawMessages)));
        if (messages.isEmpty()) {
            throw fail("messages must be a non-empty list");
        }
        for (int i = 0; i < messages.size(); i++) {
            message(messages.get(i), "messages[" + i + "]");
        }
        Object lastRole = messages.getLast().get("role");
        if (!"assistant".equals(lastRole)) {
            throw fail("the last message must be from the assistant, got role '" + lastRole + "'");
        }
        Object rawTools = object.get("tools");
        List<Map<String, Object>> tools = rawTools == null ? List.of()
                : objects(rawTools, "tools", "tools must be a list of function tools, got " + JsonReader.describe(rawTools));
        for (int i = 0; i < tools.size(); i++) {
            function(tools.get(i), "tools[" + i + "]", true);
        }
        return new SftExample(line, messages, tools);
    }

    private void message(Map<String, Object> message, String at) {
        Object role = message.get("role");
        if (role == null) {
            throw fail(at + ".role is required");
        }
        if (!(role instanceof String name) || !ROLES.contains(name)) {
            throw fail(at + ".role must be one of " + String.join(", ", ROLES) + ", got "
                    + (role instanceof String s ? "'" + s + "'" : JsonReader.describe(role)));
        }
        Object toolCalls = message.get("tool_calls");
        if (toolCalls != null) {
            if (!"assistant".equals(name)) {
                throw fail(at + ".tool_calls is only allowed on assistant messages, got role '" + name + "'");
            }
            List<Map<String, Object>> calls = objects(toolCalls, at + ".tool_calls",
                    at + ".tool_calls must be a list of function calls, got " + JsonReader.describe(toolCalls));
            for (int k = 0; k < calls.size(); k++) {
                function(calls.get(k), at + ".tool_calls[" + k + "]", false);
            }
        }
        Object content = message.get("content");
        boolean callsOnly = content == null && toolCalls instanceof List<?> list && !list.isEmpty();
        if (!callsOnly) {
            content(content, at + ".content");
        }
    }

    private void content(Object content, String at) {
        if (content instanceof String) {
            return;
        }
        if (!(content instanceof List<?> parts)) {
            throw fail(at + " must be a string or a list of text parts, got " + JsonReader.describe(content));
        }
        for (int j = 0; j < parts.size(); j++) {
            Object part = parts.get(j);
            if (!(part instanceof Map<?, ?> map) || !"text".equals(map.get("type"))
                    || !(map.get("text") instanceof String)) {
                String got = part instanceof Map<?, ?> map && map.get("type") instanceof String type && !"text".equals(type)
                        ? "a part of type '" + type + "'" : JsonReader.describe(part);
                throw fail(at + "[" + j + "] must be a text part {\"type\": \"text\", \"text\": string}, got " + got);
            }
        }
    }

    /**
     * A function tool ({@code {type: "function", function: {name, parameters?}}}) when {@code tool}, else an
     * assistant's function call ({@code {id?, type?, function: {name, arguments}}}).
     */
    private void function(Map<String, Object> item, String at, boolean tool) {
        Object type = item.get("type");
        if (type != null && !"function".equals(type)) {
            throw fail(at + ".type must be 'function', got " + (type instanceof String s ? "'" + s + "'"
                    : JsonReader.describe(type)));
        }
        if (type == null && tool) {
            throw fail(at + ".type must be 'function', got nothing");
        }
        if (!(item.get("function") instanceof Map<?, ?> function)) {
            throw fail(at + ".function must be an object, got " + JsonReader.describe(item.get("function")));
        }
        if (!(function.get("name") instanceof String name) || name.isBlank()) {
            throw fail(at + ".function.name must be a non-empty string");
        }
        if (tool) {
            Object parameters = function.get("parameters");
            if (parameters != null && !(parameters instanceof Map)) {
                throw fail(at + ".function.parameters must be an object, got " + JsonReader.describe(parameters));
            }
        } else {
            Object arguments = function.get("arguments");
            if (arguments != null && !(arguments instanceof String) && !(arguments instanceof Map)) {
                throw fail(at + ".function.arguments must be a JSON string or an object, got "
                        + JsonReader.describe(arguments));
            }
        }
    }

    /** {@code value} as a list of JSON objects; anything else stops with {@code problem}. */
    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> objects(Object value, String at, String problem) {
        if (!(value instanceof List<?> list)) {
            throw fail(problem);
        }
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof Map<?, ?>)) {
                throw fail(at + "[" + i + "] must be an object, got " + JsonReader.describe(list.get(i)));
            }
        }
        return (List<Map<String, Object>>) list;
    }
}
