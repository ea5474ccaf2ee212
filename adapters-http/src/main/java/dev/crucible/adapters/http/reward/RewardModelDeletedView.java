package dev.crucible.adapters.http.reward;

import io.micronaut.serde.annotation.Serdeable;

/** The answer to deleting a reward model, in OpenAI's shape: {@code {id, object: "reward_model", deleted: true}}. */
@Serdeable
record RewardModelDeletedView(String id, String object, boolean deleted) {

    static RewardModelDeletedView of(String id) {
        return new RewardModelDeletedView(id, "reward_model", true);
    }
}
