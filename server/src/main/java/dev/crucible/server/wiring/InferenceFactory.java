package dev.crucible.server.wiring;

import dev.crucible.application.inference.chat.ChatCompletionService;
import dev.crucible.application.inference.chat.ChatCompletionUseCase;
import dev.crucible.application.inference.chat.ChatModelResolver;
import dev.crucible.application.inference.chat.ChatSettings;
import dev.crucible.application.inference.chat.ChatWarmUpService;
import dev.crucible.application.inference.chat.WarmUpChatUseCase;
import dev.crucible.application.inference.serving.AdapterCache;
import dev.crucible.application.inference.serving.ModelSupervisor;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.model.ModelStore;
import dev.crucible.application.usage.UsageRecorder;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * Builds the chat-completion use case over the served models, the caller's trained models and their adapters, with
 * the per-key and per-entity bounds on requests in flight ({@code crucible.inference.max-requests-per-*}), the trust
 * in request chat templates ({@code crucible.inference.trust-request-chat-template}, with its render time-out), the
 * budgets of structured outputs ({@code crucible.structured-outputs.max-*}), and
 * each completion's usage recorded; and the warm-up chats run before the server serves.
 */
@Factory
class InferenceFactory {

    @Singleton
    @Bean(preDestroy = "close")
    AdapterCache adapterCache(CrucibleSettings settings) {
        return new AdapterCache(settings.adapterCacheSize());
    }

    /**
     * Reloads a model whose generation stopped, checking every {@code crucible.inference.model-check-interval};
     * started with the server ({@code StartupTasks}).
     */
    @Singleton
    @Bean(preDestroy = "close")
    ModelSupervisor modelSupervisor(ServedModels served, AdapterCache adapters, InferenceSettings settings) {
        return new ModelSupervisor(served, adapters, settings.modelCheckInterval());
    }

    /**
     * Made when the context starts, before the server listens ({@link Context}), not by the first chat request's
     * controller: that request used to build it and the models' latency histograms on its way to its first token.
     */
    @Context
    ChatCompletionUseCase chatCompletions(ServedModels served, ModelStore models, CheckpointStore checkpoints,
            AdapterFiles adapterFiles, AdapterCache adapters,
            InferenceSettings inference, StructuredOutputSettings structured, MeterRegistry registry,
            UsageRecorder usage, Clock clock) {
        return new ChatCompletionService(new ChatModelResolver(served, models, checkpoints, adapterFiles), adapters,
                settings(inference, structured), new MeteredChatObserver(registry, served.names()), usage, clock);
    }

    /** The warm-up chats before the server serves, prepared as the chat completions' own requests are. */
    @Singleton
    WarmUpChatUseCase chatWarmUp(ServedModels served, ModelStore models, CheckpointStore checkpoints,
            AdapterFiles adapterFiles, InferenceSettings inference, StructuredOutputSettings structured) {
        return new ChatWarmUpService(served, new ChatModelResolver(served, models, checkpoints, adapterFiles),
                settings(inference, structured));
    }

    private static ChatSettings settings(InferenceSettings inference, StructuredOutputSettings structured) {
        return new ChatSettings(structured.disableAnyWhitespace(), inference.requestLimits(),
                inference.requestTemplates(), structured.budgets());
    }
}
