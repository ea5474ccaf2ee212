package dev.crucible.domain.usage;

import java.util.List;

/**
 * One time bucket of usage: {@code [startTime, endTime)} in Unix seconds, and its results (none when nothing was
 * used in it; one per group otherwise, ordered by the group's values): {@link UsageTotals} of completions or
 * {@link TrainingTotals} of training operations.
 */
public record UsageBucket<T>(long startTime, long endTime, List<T> results) {

    public UsageBucket {
        results = List.copyOf(results);
    }
}
