package dev.crucible.application.dataset;

import dev.crucible.kernel.invariant.NonNull;
import java.time.Instant;
import java.util.Map;

/**
 * A feedback row on a stored completion, as a dataset reads it.
 *
 * @param id         the feedback row's id
 * @param completion the stored completion its {@code weave_ref} names
 * @param created    when it was written; the latest of a completion's rows is the one that counts
 * @param payload    its payload, JSON-shaped
 */
public record CompletionFeedback(String id, String completion, Instant created, Map<String, Object> payload) {

    public CompletionFeedback {
        NonNull.components(CompletionFeedback.class, id, completion, created, payload);
    }
}
