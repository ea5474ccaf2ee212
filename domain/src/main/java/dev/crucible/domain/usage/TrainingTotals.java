package dev.crucible.domain.usage;

import dev.crucible.kernel.invariant.NonNull;
import java.util.Optional;

/**
 * One result of a training usage bucket: the sums of the operations that share its group's values. A field the
 * query did not group by is empty.
 *
 * @param projectId     the project ({@code <team>/<project>}) when grouped by it
 * @param model         the model when grouped by it
 * @param apiKeyId      the key's id when grouped by it
 * @param trainedTokens positions trained by {@code forward_backward}
 * @param forwardTokens positions scored by forward-only passes
 * @param numOperations how many operations
 */
public record TrainingTotals(Optional<String> projectId, Optional<String> model, Optional<String> apiKeyId,
        long trainedTokens, long forwardTokens, long numOperations) {

    public TrainingTotals {
        NonNull.components(TrainingTotals.class, projectId, model, apiKeyId);
    }

    /** These sums with {@code other}'s added; the group's values stay this one's. */
    public TrainingTotals plus(TrainingTotals other) {
        return new TrainingTotals(projectId, model, apiKeyId, trainedTokens + other.trainedTokens,
                forwardTokens + other.forwardTokens, numOperations + other.numOperations);
    }
}
