package dev.crucible.application.dataset;

import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.dataset.FeedbackPredicate;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/** The score a feedback row's payload field gives ({@link FeedbackPredicate#score}); none without a row. */
public record FeedbackReward(FeedbackPredicate predicate) implements RewardSource {

    public FeedbackReward {
        Objects.requireNonNull(predicate, "predicate");
    }

    @Override
    public OptionalDouble score(StoredCompletion completion, Optional<CompletionFeedback> feedback) {
        return feedback.map(row -> predicate.score(row.payload())).orElse(OptionalDouble.empty());
    }
}
