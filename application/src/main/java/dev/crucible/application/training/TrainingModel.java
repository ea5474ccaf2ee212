package dev.crucible.application.training;

import dev.crucible.application.inference.template.ChatTemplate;
import dev.crucible.engine.spi.Tokenizer;
import java.util.Map;
import java.util.Objects;

/**
 * What turns conversations into training tokens for one base model: its tokenizer, chat template, the special tokens
 * the template sees, and its context length.
 */
record TrainingModel(Tokenizer tokenizer, ChatTemplate template, Map<String, String> specialTokens, int maxLength) {

    TrainingModel {
        Objects.requireNonNull(tokenizer, "tokenizer");
        Objects.requireNonNull(template, "template");
        specialTokens = Map.copyOf(specialTokens);
        if (maxLength < 2) {
            throw new IllegalArgumentException("maxLength must be >= 2, got " + maxLength);
        }
    }
}
