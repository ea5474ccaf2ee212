package dev.crucible.application.inference.chat.ask;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * How a chat request's prompt is rendered.
 *
 * @param chatTemplate         a template sent with the request, rendered instead of the model's (a server setting
 *                             may refuse them); empty for the model's own
 * @param chatTemplateKwargs   extra template variables (never {@code chat_template} or {@code tokenize})
 * @param addGenerationPrompt  true by default
 * @param continueFinalMessage false by default; never true together with {@code addGenerationPrompt}
 * @param addSpecialTokens     false by default
 * @param documents            documents for retrieval templates, empty for none
 * @param reasoningEffort      one of none, minimal, low, medium, high, xhigh, max; empty for none
 * @param mmProcessorKwargs    accepted and without effect: Crucible serves text models, which have no multimodal
 *                             processor
 */
public record ChatTemplating(Optional<String> chatTemplate, Map<String, Object> chatTemplateKwargs,
        boolean addGenerationPrompt, boolean continueFinalMessage, boolean addSpecialTokens,
        Optional<List<Map<String, Object>>> documents, Optional<String> reasoningEffort,
        Map<String, Object> mmProcessorKwargs) {

    public ChatTemplating {
        Objects.requireNonNull(chatTemplate, "chatTemplate");
        chatTemplateKwargs = JsonCopies.map(chatTemplateKwargs);
        documents = Objects.requireNonNull(documents, "documents").map(JsonCopies::maps);
        Objects.requireNonNull(reasoningEffort, "reasoningEffort");
        mmProcessorKwargs = JsonCopies.map(mmProcessorKwargs);
    }

    /** The model's own template with a generation prompt and nothing else. */
    public static ChatTemplating defaults() {
        return new ChatTemplating(Optional.empty(), Map.of(), true, false, false, Optional.empty(), Optional.empty(),
                Map.of());
    }
}
