package dev.crucible.adapters.http.inference;

import dev.crucible.adapters.http.body.StorableText;
import dev.crucible.domain.completion.CompletionMetadata;
import dev.crucible.domain.completion.CompletionTokens;
import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.usage.UsageProject;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.RefusalException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a chat request asks about keeping its answer: {@code store} (vLLM's lax boolean) and {@code metadata} (checked
 * whether or not it is stored), and, when stored, the messages as sent and the parameters worth showing. A stored
 * request's strings must be ones PostgreSQL can store ({@link StorableText}): a 400 naming where, before anything is
 * generated. Immutable.
 *
 * @param store    whether to keep the answer
 * @param metadata the caller's tags
 * @param messages the request's messages as sent; empty unless stored
 * @param params   the {@link #SHOWN} parameters the request set; empty unless stored
 */
record StoreRequest(boolean store, CompletionMetadata metadata, List<Map<String, Object>> messages,
        Map<String, Object> params) {

    /** The request parameters a stored completion shows, as OpenAI's stored object shows its own. */
    static final List<String> SHOWN = List.of("temperature", "top_p", "max_tokens", "max_completion_tokens", "n",
            "seed", "presence_penalty", "frequency_penalty", "stop", "tool_choice", "response_format");

    static StoreRequest read(JsonReader body) {
        Map<String, Object> raw = body.raw();
        ChatFields fields = new ChatFields(raw, List.of());
        boolean store = fields.bool("store", false);
        CompletionMetadata metadata = RefusalException.unwrap(CompletionMetadata.read("metadata", raw.get("metadata")));
        if (!store) {
            return new StoreRequest(false, metadata, List.of(), Map.of());
        }
        List<Map<String, Object>> messages = new ArrayList<>();
        if (raw.get("messages") instanceof List<?> sent) {
            for (Object message : sent) {
                if (message instanceof Map<?, ?> map) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> m = (Map<String, Object>) map;
                    messages.add(m);
                }
            }
        }
        storable("messages", messages);
        Map<String, Object> params = new LinkedHashMap<>();
        for (String name : SHOWN) {
            if (raw.get(name) != null) {
                storable(name, raw.get(name));
                params.put(name, raw.get(name));
            }
        }
        return new StoreRequest(true, metadata, messages, params);
    }

    /** The completion to keep, from the answer's JSON body ({@link ChatResponses#completion}). */
    StoredCompletion completion(UsageProject project, Map<String, Object> answer) {
        List<Map<String, Object>> choices = new ArrayList<>();
        for (Object item : (List<?>) answer.get("choices")) {
            Map<?, ?> choice = (Map<?, ?>) item;
            Map<String, Object> kept = new LinkedHashMap<>();
            kept.put("index", choice.get("index"));
            kept.put("message", choice.get("message"));
            kept.put("logprobs", choice.get("logprobs"));
            kept.put("finish_reason", choice.get("finish_reason"));
            choices.add(kept);
        }
        Map<?, ?> usage = (Map<?, ?>) answer.get("usage");
        return new StoredCompletion((String) answer.get("id"), project,
                Instant.ofEpochSecond(((Number) answer.get("created")).longValue()), (String) answer.get("model"),
                messages, choices, new CompletionTokens(((Number) usage.get("prompt_tokens")).longValue(),
                        ((Number) usage.get("completion_tokens")).longValue()), metadata, params);
    }

    /** Refuses a string (value or key) under {@code at} that PostgreSQL cannot store, naming where it is. */
    private static void storable(String at, Object value) {
        switch (value) {
            case String text -> StorableText.problem(text).ifPresent(problem -> {
                throw RefusalException.invalid(at, at + " " + problem);
            });
            case Map<?, ?> map -> map.forEach((k, v) -> {
                String key = String.valueOf(k);
                String inner = at + "." + key;
                StorableText.problem(key).ifPresent(problem -> {
                    throw RefusalException.invalid(at, "a key of " + at + " " + problem);
                });
                storable(inner, v);
            });
            case List<?> list -> {
                for (int i = 0; i < list.size(); i++) {
                    storable(at + "[" + i + "]", list.get(i));
                }
            }
            case null, default -> {
            }
        }
    }
}
