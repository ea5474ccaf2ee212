package dev.crucible.runtime.template;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a chat template is rendered with: the variables transformers' {@code apply_chat_template} hands to the template.
 * Values are JSON-shaped ({@link Map} with insertion order, {@link List}, {@link String}, {@link Number},
 * {@link Boolean}, null); the maps' key order is kept, since {@code tojson} writes keys in that order.
 *
 * <p>The template sees {@code messages}, {@code tools}, {@code documents}, {@code add_generation_prompt}, then every
 * special token ({@code bos_token}, {@code eos_token}, … from {@code tokenizer_config.json}; a token the tokenizer
 * does not define is left out, so the template finds it undefined) and every extra keyword argument
 * ({@code chat_template_kwargs} such as {@code enable_thinking}). A keyword argument shadows a special token of the
 * same name; the four named variables win over both. {@code continue_final_message} is not a template variable
 * (transformers consumes it): it cuts the rendered prompt after the final message's content.
 *
 * @param messages the conversation, never null; each message a map such as {@code {"role": "user", "content": "Hi"}}
 * @param tools the tool schemas ({@code {"type": "function", "function": {...}}}), or null for none
 * @param documents documents for retrieval-augmented templates, or null for none
 * @param addGenerationPrompt whether to end the prompt with the header of a new assistant turn
 * @param continueFinalMessage whether the model should carry on the final message instead of starting a new one
 * @param specialTokens token name to its text, never null (null is taken as empty)
 * @param kwargs extra template variables, never null (null is taken as empty)
 */
public record ChatTemplateInput(List<Map<String, Object>> messages, List<Map<String, Object>> tools,
        List<Map<String, Object>> documents, boolean addGenerationPrompt, boolean continueFinalMessage,
        Map<String, String> specialTokens, Map<String, Object> kwargs) {

    public ChatTemplateInput {
        Objects.requireNonNull(messages, "messages");
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) == null) {
                throw new IllegalArgumentException("messages must not contain null, got null at index " + i);
            }
        }
        messages = Collections.unmodifiableList(new ArrayList<>(messages));
        tools = tools == null ? null : Collections.unmodifiableList(new ArrayList<>(tools));
        documents = documents == null ? null : Collections.unmodifiableList(new ArrayList<>(documents));
        specialTokens = specialTokens == null ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(specialTokens));
        kwargs = kwargs == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(kwargs));
    }

    /** A conversation with a generation prompt and nothing else: no tools, documents, special tokens or kwargs. */
    public static ChatTemplateInput of(List<Map<String, Object>> messages) {
        return new ChatTemplateInput(messages, null, null, true, false, Map.of(), Map.of());
    }

    /** The variables the template is rendered with, in transformers' order of precedence. */
    Map<String, Object> variables() {
        Map<String, Object> variables = new LinkedHashMap<>();
        specialTokens.forEach((name, token) -> {
            if (token != null) {
                variables.put(name, token);
            }
        });
        variables.putAll(kwargs);
        variables.put("messages", messages);
        variables.put("tools", tools);
        variables.put("documents", documents);
        variables.put("add_generation_prompt", addGenerationPrompt);
        return variables;
    }
}
