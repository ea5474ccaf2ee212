package dev.crucible.domain.dataset;

import java.util.Objects;
import java.util.Optional;

/**
 * What a dataset is built from: a query over one project's stored completions and their feedback, in one form.
 *
 * @param name        the caller's label, 1 to {@value #MAX_NAME} characters
 * @param project     the project whose completions and feedback are read (its name within the caller's entity)
 * @param kind        the form of the rows
 * @param filter      which completions
 * @param feedback    which feedback counts and how it scores
 * @param rewardModel for {@code rl}: the reward model that scores each answer instead of the feedback's field
 */
public record DatasetRequest(String name, String project, DatasetKind kind, DatasetFilter filter,
        FeedbackPredicate feedback, Optional<String> rewardModel) {

    public static final int MAX_NAME = 256;

    public DatasetRequest {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty() || name.length() > MAX_NAME) {
            throw new IllegalArgumentException("name must be 1 to " + MAX_NAME + " characters, got " + name.length());
        }
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(feedback, "feedback");
        Objects.requireNonNull(rewardModel, "rewardModel");
        if (kind != DatasetKind.SFT && feedback.path().isEmpty() && rewardModel.isEmpty()) {
            throw new IllegalArgumentException("feedback.payload_path is required for a " + kind.wireName()
                    + " dataset: it scores the answers");
        }
    }
}
