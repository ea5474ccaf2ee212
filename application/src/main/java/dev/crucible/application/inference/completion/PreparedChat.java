package dev.crucible.application.inference.completion;

import dev.crucible.application.inference.chat.ChatRequest;
import dev.crucible.application.inference.generation.GenerationRequest;
import java.util.Objects;

/**
 * A chat request that passed every check and is ready to generate.
 *
 * @param model the model to run and the name to report
 * @param request the checked request
 * @param generation the prompt ids and sampling parameters for the generator
 */
public record PreparedChat(ChatModelResolver.Resolved model, ChatRequest request, GenerationRequest generation) {

    public PreparedChat {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(generation, "generation");
    }
}
