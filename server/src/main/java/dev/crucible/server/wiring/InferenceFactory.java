package dev.crucible.server.wiring;

import dev.crucible.application.inference.completion.ChatCompletionService;
import dev.crucible.application.inference.completion.ChatModelResolver;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.model.ModelStore;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/** Builds the chat-completion use case over the served models and the caller's trained models. */
@Factory
class InferenceFactory {

    @Singleton
    ChatCompletionService chatCompletions(ServedModels served, ModelStore models, CheckpointStore checkpoints) {
        return new ChatCompletionService(new ChatModelResolver(served, models, checkpoints));
    }
}
