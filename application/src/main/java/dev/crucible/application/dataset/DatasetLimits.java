package dev.crucible.application.dataset;

import dev.crucible.kernel.refusal.Refusal;

/**
 * How large a dataset may grow.
 *
 * @param maxRows        the most rows one dataset holds ({@code crucible.datasets.max-rows})
 * @param maxCompletions the most stored completions one build reads ({@code crucible.datasets.max-completions})
 */
public record DatasetLimits(int maxRows, int maxCompletions) {

    public DatasetLimits {
        if (maxRows < 1 || maxCompletions < 1) {
            throw new IllegalArgumentException("crucible.datasets.max-rows and max-completions must be >= 1, got "
                    + maxRows + " and " + maxCompletions);
        }
    }

    Refusal tooManyRows(int rows) {
        return new Refusal(Refusal.Reason.TOO_LARGE, "the dataset would hold " + rows + " rows, more than "
                + maxRows + " (setting crucible.datasets.max-rows); narrow the filter", "filter");
    }

    Refusal tooManyCompletions() {
        return new Refusal(Refusal.Reason.TOO_LARGE, "the filter matches more than " + maxCompletions
                + " stored completions (setting crucible.datasets.max-completions); narrow it", "filter");
    }
}
