package dev.crucible.adapters.http.completion;

import dev.crucible.domain.completion.StoredCompletion;
import java.util.LinkedHashMap;
import java.util.Map;

/** Stored completions on the wire, as OpenAI returns them: the {@code chat.completion} object and its messages. */
final class StoredCompletionViews {

    private StoredCompletionViews() {
    }

    /** The {@code chat.completion} object with {@code metadata}, the stored parameters at its top level. */
    static Map<String, Object> completion(StoredCompletion stored) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", stored.id());
        body.put("object", "chat.completion");
        body.put("created", stored.created().getEpochSecond());
        body.put("model", stored.model());
        body.put("choices", stored.choices());
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("prompt_tokens", stored.usage().prompt());
        usage.put("completion_tokens", stored.usage().completion());
        usage.put("total_tokens", stored.usage().total());
        body.put("usage", usage);
        body.put("metadata", stored.metadata().pairs());
        body.put("service_tier", null);
        body.put("system_fingerprint", null);
        stored.params().forEach(body::putIfAbsent);
        return body;
    }

    /** The request's message {@code index} with its id, {@code <completion id>-<index>}, first. */
    static Map<String, Object> message(StoredCompletion stored, int index) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", messageId(stored, index));
        Map<String, Object> message = stored.messages().get(index);
        message.forEach((key, value) -> {
            if (!key.equals("id")) {
                out.put(key, value);
            }
        });
        out.putIfAbsent("content", null);
        return out;
    }

    static String messageId(StoredCompletion stored, int index) {
        return stored.id() + "-" + index;
    }

    /** {@code {"object":"chat.completion.deleted","id","deleted":true}}. */
    static Map<String, Object> deleted(String id) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("object", "chat.completion.deleted");
        body.put("id", id);
        body.put("deleted", true);
        return body;
    }
}
