package dev.crucible.application.inference.chat.answer;

import dev.crucible.application.inference.chat.ask.ChatRequest;
import java.util.List;
import java.util.Objects;

/**
 * What a completion reports in every chunk or body, known once it is admitted.
 *
 * @param model          the name the response reports (the requested one; a trained model's address)
 * @param request        the request as answered: a trained model's always returns trainable logprobs and token ids
 * @param promptTokenIds the prompt's tokens after truncation
 */
public record ChatStart(String model, ChatRequest request, List<Integer> promptTokenIds) {

    public ChatStart {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(request, "request");
        promptTokenIds = List.copyOf(promptTokenIds);
    }
}
