package dev.crucible.domain.dataset;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which stored completions a dataset reads: every present part must match.
 *
 * @param model         only answers by this model name
 * @param metadata      only completions whose metadata holds every pair
 * @param createdAfter  only completions created at or after this
 * @param createdBefore only completions created before this; after {@code createdAfter} when both are given
 */
public record DatasetFilter(Optional<String> model, Map<String, String> metadata, Optional<Instant> createdAfter,
        Optional<Instant> createdBefore) {

    public DatasetFilter {
        Objects.requireNonNull(model, "model");
        metadata = Map.copyOf(metadata);
        Objects.requireNonNull(createdAfter, "createdAfter");
        Objects.requireNonNull(createdBefore, "createdBefore");
        if (createdAfter.isPresent() && createdBefore.isPresent()
                && !createdAfter.get().isBefore(createdBefore.get())) {
            throw new IllegalArgumentException("filter.created_before must be after filter.created_after, got "
                    + createdAfter.get() + " and " + createdBefore.get());
        }
    }
}
