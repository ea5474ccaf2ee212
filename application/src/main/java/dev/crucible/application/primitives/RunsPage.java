package dev.crucible.application.primitives;

import java.util.List;

/** One page of the caller's runs, newest first, with the paging it was asked for and the entity's run count. */
public record RunsPage(List<RunSummary> runs, int offset, int limit, int totalCount) {

    public RunsPage {
        runs = List.copyOf(runs);
        if (offset < 0 || limit < 1 || totalCount < 0) {
            throw new IllegalArgumentException("offset >= 0, limit >= 1 and totalCount >= 0, got " + offset + ", "
                    + limit + ", " + totalCount);
        }
    }
}
