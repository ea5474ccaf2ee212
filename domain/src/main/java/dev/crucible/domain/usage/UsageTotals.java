package dev.crucible.domain.usage;

import dev.crucible.kernel.invariant.NonNull;
import java.util.Optional;

/**
 * One result of a usage bucket: the sums of the completions that share its group's values. A field the query did
 * not group by is empty (OpenAI answers it as {@code null}).
 *
 * @param projectId        the project ({@code <team>/<project>}) when grouped by it
 * @param model            the model when grouped by it
 * @param apiKeyId         the key's id when grouped by it
 * @param batch            {@code false} when grouped by batch (Crucible has no batch completions)
 * @param inputTokens      prompt tokens, cached ones included
 * @param outputTokens     generated tokens
 * @param cachedTokens     prompt tokens served from the prefix cache
 * @param modelRequests    how many completions
 */
public record UsageTotals(Optional<String> projectId, Optional<String> model, Optional<String> apiKeyId,
        Optional<Boolean> batch, long inputTokens, long outputTokens, long cachedTokens, long modelRequests) {

    public UsageTotals {
        NonNull.components(UsageTotals.class, projectId, model, apiKeyId, batch);
    }

    /** These sums with {@code other}'s added; the group's values stay this one's. */
    public UsageTotals plus(UsageTotals other) {
        return new UsageTotals(projectId, model, apiKeyId, batch, inputTokens + other.inputTokens,
                outputTokens + other.outputTokens, cachedTokens + other.cachedTokens,
                modelRequests + other.modelRequests);
    }
}
