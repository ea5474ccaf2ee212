package dev.crucible.adapters.http.inference;

import dev.crucible.kernel.refusal.RefusalException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@code messages}: a required list of objects, each with a string {@code role} (custom roles allowed) and a
 * {@code content} that is null, a string or a list of parts. Text parts are joined with {@code "\n"} into one string,
 * as vLLM's "string" content format renders them; other keys are kept; a deprecated {@code reasoning_content} key is
 * renamed {@code reasoning}. Crucible serves text-only models, so a non-text part is refused.
 */
final class MessagesReader {

    /** Part types whose text is in {@code text}; a {@code refusal} part keeps it in {@code refusal}. */
    private static final Set<String> TEXT_PARTS = Set.of("text", "input_text", "output_text");

    private MessagesReader() {
    }

    static List<Map<String, Object>> read(ChatFields body) {
        if (!body.has("messages")) {
            throw body.missing("messages");
        }
        return body.elements("messages", MessagesReader::message).orElseThrow();
    }

    private static Map<String, Object> message(Object item, List<Object> at) {
        Map<String, Object> fields = LaxValues.asObject(item, at);
        ChatFields message = new ChatFields(fields, at);
        if (!message.has("role")) {
            throw message.missing("role");
        }
        message.string("role");
        message.string("name");
        Map<String, Object> out = new LinkedHashMap<>(fields);
        Object content = fields.get("content");
        if (content instanceof List<?> parts) {
            out.put("content", join(parts, message.loc("content")));
        } else if (content != null && !(content instanceof String)) {
            throw SchemaError.of(message.loc("content"), "string_type", "Input should be a valid string", content);
        }
        if (out.containsKey("reasoning_content") && !out.containsKey("reasoning")) {
            out.put("reasoning", out.remove("reasoning_content"));
        }
        return out;
    }

    private static String join(List<?> parts, List<Object> at) {
        List<String> texts = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            List<Object> partAt = new ArrayList<>(at);
            partAt.add(i);
            texts.add(text(parts.get(i), partAt));
        }
        return String.join("\n", texts);
    }

    private static String text(Object part, List<Object> at) {
        if (part instanceof String s) {
            return s;
        }
        ChatFields fields = new ChatFields(LaxValues.asObject(part, at), at);
        if (!fields.has("type")) {
            throw fields.missing("type");
        }
        String type = fields.string("type").orElseThrow();
        String key = TEXT_PARTS.contains(type) ? "text" : "refusal".equals(type) ? "refusal" : null;
        if (key == null) {
            throw RefusalException.invalid(SchemaError.path(fields.loc("type")), "Content part type '" + type
                    + "' is not supported: Crucible serves text-only models, so content parts must be text.");
        }
        if (!fields.has(key)) {
            throw fields.missing(key);
        }
        return fields.string(key).orElseThrow();
    }
}
