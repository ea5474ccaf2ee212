package dev.crucible.domain.usage;

import dev.crucible.kernel.invariant.NonNull;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.util.UUID;

/**
 * What one chat completion used, as its response's {@code usage} reports it, and whom it counts against.
 *
 * @param entity       the caller's entity (the tenant who sees this usage)
 * @param project      the project named by the request's header, or the entity's default one
 * @param model        the model name the response reported
 * @param apiKeyId     the id of the key that made the request
 * @param endedAt      when the completion ended (finished, or stopped by its client)
 * @param inputTokens  the prompt's tokens, cached ones included
 * @param outputTokens the tokens generated, over all choices
 * @param cachedTokens the prompt's tokens served from the prefix cache (a part of {@code inputTokens})
 */
public record CompletionUsage(EntityName entity, UsageProject project, String model, UUID apiKeyId, Instant endedAt,
        long inputTokens, long outputTokens, long cachedTokens) implements RecordedUsage {

    public CompletionUsage {
        NonNull.components(CompletionUsage.class, entity, project, model, apiKeyId, endedAt);
        if (inputTokens < 0 || outputTokens < 0 || cachedTokens < 0 || cachedTokens > inputTokens) {
            throw new IllegalArgumentException("token counts must be >= 0 with cached <= input, got input "
                    + inputTokens + ", output " + outputTokens + ", cached " + cachedTokens);
        }
    }
}
