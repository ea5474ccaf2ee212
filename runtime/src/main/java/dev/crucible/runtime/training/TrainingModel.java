package dev.crucible.runtime.training;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.hf.tokenizer.Tokenizer;
import dev.crucible.runtime.template.ChatTemplate;
import dev.crucible.runtime.template.ChatTemplateInput;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What turns conversations into training tokens for one base model: its tokenizer, chat template, the special tokens
 * the template sees, and its context length.
 */
public record TrainingModel(Tokenizer tokenizer, ChatTemplate template, Map<String, String> specialTokens, int maxLength) {

    public TrainingModel {
        Objects.requireNonNull(tokenizer, "tokenizer");
        Objects.requireNonNull(template, "template");
        specialTokens = Map.copyOf(specialTokens);
        if (maxLength < 2) {
            throw new IllegalArgumentException("maxLength must be >= 2, got " + maxLength);
        }
    }

    /**
     * Renders a conversation with the model's template and special tokens (no tools when {@code tools} is empty).
     *
     * @param where names the conversation in the message of a refusal
     * @throws TrainingInputException when the template refuses it
     */
    String render(List<Map<String, Object>> messages, List<Map<String, Object>> tools, boolean generationPrompt,
            boolean continueFinalMessage, String where) {
        ChatTemplateInput input = new ChatTemplateInput(messages, tools.isEmpty() ? null : tools, null,
                generationPrompt, continueFinalMessage, specialTokens, Map.of());
        return switch (template.render(input)) {
            case Outcome.Done<String> done -> done.value();
            case Outcome.Refused<String> refused -> throw new TrainingInputException(where
                    + ": the chat template refused the conversation: " + refused.refusal().message());
        };
    }
}
