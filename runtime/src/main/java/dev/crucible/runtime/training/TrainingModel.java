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
 * the template sees, its context length, and its vocabulary's rows ({@code vocab_size}): a model's vocabulary is often
 * padded past its tokenizer's (Qwen2.5: 151,936 rows for 151,665 tokens), and a sampler may pick a padded id, which
 * the model has a row for and so can train on, as vLLM and ART do.
 */
public record TrainingModel(Tokenizer tokenizer, ChatTemplate template, Map<String, String> specialTokens, int maxLength,
        int vocabRows) {

    public TrainingModel {
        Objects.requireNonNull(tokenizer, "tokenizer");
        Objects.requireNonNull(template, "template");
        specialTokens = Map.copyOf(specialTokens);
        if (maxLength < 2) {
            throw new IllegalArgumentException("maxLength must be >= 2, got " + maxLength);
        }
        if (vocabRows < 1) {
            throw new IllegalArgumentException("vocabRows must be at least 1, got " + vocabRows);
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
