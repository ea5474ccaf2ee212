package dev.crucible.application.dataset;

import dev.crucible.domain.completion.StoredCompletion;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Where an answer's score comes from when a dataset compares or rewards answers: a feedback payload field
 * ({@link FeedbackReward}) or, later, a reward model. Thread-safe; pure for a given input.
 */
public interface RewardSource {

    /**
     * The score of {@code completion}, given its counting feedback row if it has one; empty when it has none (the
     * completion is then left out).
     */
    OptionalDouble score(StoredCompletion completion, Optional<CompletionFeedback> feedback);
}
