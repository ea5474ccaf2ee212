package dev.crucible.server.wiring;

import dev.crucible.application.inference.chat.RequestLimits;
import dev.crucible.application.inference.chat.RequestTemplates;
import dev.crucible.application.inference.serving.ServedModelLoader;
import dev.crucible.runtime.generation.PrefillBudget;
import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;

/**
 * How base models are served and chat requests bounded ({@code crucible.inference.*}); the defaults, each explained,
 * live in {@code application.yml}.
 */
@ConfigurationProperties("crucible.inference")
record InferenceSettings(int maxWaitingRequests, int prefixCacheTokens, int maxBatchSequences, int prefillStepTokens,
        double prefillStallFactor, Duration releaseIdleMemoryAfter, Duration modelCheckInterval,
        int maxRequestsPerKey, int maxRequestsPerEntity, boolean trustRequestChatTemplate,
        Duration requestChatTemplateTimeout, long requestChatTemplateMaxChars, int requestChatTemplateMaxItems) {

    RequestLimits requestLimits() {
        return new RequestLimits(maxRequestsPerKey, maxRequestsPerEntity);
    }

    RequestTemplates requestTemplates() {
        return new RequestTemplates(trustRequestChatTemplate, requestChatTemplateTimeout, requestChatTemplateMaxChars,
                requestChatTemplateMaxItems);
    }

    /** The sequences a model decodes together; fewer than one fails the start. */
    int batchSequences() {
        if (maxBatchSequences < 1) {
            throw new IllegalArgumentException(ServedModelLoader.MAX_BATCH_SEQUENCES_SETTING
                    + " must be at least 1, got " + maxBatchSequences);
        }
        return maxBatchSequences;
    }

    /**
     * The prompt tokens a step may forward while other sequences decode: {@code prefill-step-tokens} when positive,
     * else paced to {@code prefill-stall-factor} decode steps.
     */
    PrefillBudget prefillBudget() {
        if (prefillStepTokens < 0) {
            throw new IllegalArgumentException("crucible.inference.prefill-step-tokens must be 0 (paced) or positive, "
                    + "got " + prefillStepTokens);
        }
        if (prefillStepTokens == 0 && !(prefillStallFactor > 1 && Double.isFinite(prefillStallFactor))) {
            throw new IllegalArgumentException("crucible.inference.prefill-stall-factor must be above 1, got "
                    + prefillStallFactor);
        }
        return prefillStepTokens > 0 ? PrefillBudget.fixed(prefillStepTokens) : PrefillBudget.paced(prefillStallFactor);
    }
}
