package dev.crucible.server.wiring;

import dev.crucible.application.inference.chat.ChatCompletionService;
import dev.crucible.application.inference.chat.ChatCompletionUseCase;
import dev.crucible.application.inference.chat.ChatModelResolver;
import dev.crucible.application.inference.chat.ChatSettings;
import dev.crucible.application.inference.chat.RequestLimits;
import dev.crucible.application.inference.chat.RequestTemplates;
import dev.crucible.application.inference.serving.AdapterCache;
import dev.crucible.application.inference.serving.ModelSupervisor;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.model.ModelStore;
import dev.crucible.application.usage.UsageRecorder;
import dev.crucible.runtime.structured.ConstraintBudgets;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;

/**
 * Builds the chat-completion use case over the served models, the caller's trained models and their adapters, with
 * the per-key and per-entity bounds on requests in flight ({@code crucible.inference.max-requests-per-*}), the trust
 * in request chat templates ({@code crucible.inference.trust-request-chat-template}, with its render time-out), the
 * budgets of structured outputs ({@code crucible.structured-outputs.max-*}), and
 * each completion's usage recorded.
 */
@Factory
class InferenceFactory {

    @Singleton
    @Bean(preDestroy = "close")
    AdapterCache adapterCache(@Value("${crucible.adapter-cache-size:16}") int size) {
        return new AdapterCache(size);
    }

    /**
     * Reloads a model whose generation stopped, checking every {@code crucible.inference.model-check-interval};
     * started with the server ({@code StartupTasks}).
     */
    @Singleton
    @Bean(preDestroy = "close")
    ModelSupervisor modelSupervisor(ServedModels served, AdapterCache adapters,
            @Value("${crucible.inference.model-check-interval:1s}") Duration interval) {
        return new ModelSupervisor(served, adapters, interval);
    }

    @Singleton
    ChatCompletionUseCase chatCompletions(ServedModels served, ModelStore models, CheckpointStore checkpoints,
            AdapterFiles adapterFiles, AdapterCache adapters,
            @Value("${crucible.structured-outputs.disable-any-whitespace:false}") boolean disableAnyWhitespace,
            @Value("${crucible.inference.max-requests-per-key:96}") int maxPerKey,
            @Value("${crucible.inference.max-requests-per-entity:128}") int maxPerEntity,
            @Value("${crucible.inference.trust-request-chat-template:true}") boolean trustRequestTemplates,
            @Value("${crucible.inference.request-chat-template-timeout:2s}") Duration requestTemplateTimeout,
            @Value("${crucible.inference.request-chat-template-max-chars:4194304}") long requestTemplateMaxChars,
            @Value("${crucible.inference.request-chat-template-max-items:100000}") int requestTemplateMaxItems,
            @Value("${crucible.structured-outputs.max-automaton-size:150000}") int maxAutomatonSize,
            @Value("${crucible.structured-outputs.max-grammar-symbols:100000}") int maxGrammarSymbols,
            @Value("${crucible.structured-outputs.max-parse-work:1000000}") int maxParseWork,
            MeterRegistry registry, UsageRecorder usage, Clock clock) {
        ChatSettings settings = new ChatSettings(disableAnyWhitespace, new RequestLimits(maxPerKey, maxPerEntity),
                new RequestTemplates(trustRequestTemplates, requestTemplateTimeout, requestTemplateMaxChars,
                        requestTemplateMaxItems),
                new ConstraintBudgets(maxAutomatonSize, maxGrammarSymbols, maxParseWork));
        return new ChatCompletionService(new ChatModelResolver(served, models, checkpoints, adapterFiles), adapters,
                settings, new MeteredChatObserver(registry), usage, clock);
    }
}
