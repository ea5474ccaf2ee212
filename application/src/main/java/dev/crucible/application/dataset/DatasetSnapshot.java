package dev.crucible.application.dataset;

import java.util.List;

/**
 * A dataset's rows as built, and what went into them.
 *
 * @param lines       the JSONL lines, each one JSON object without its newline
 * @param completions the stored completion ids the rows hold, in row order
 * @param feedback    the feedback row ids that chose or scored them
 */
public record DatasetSnapshot(List<String> lines, List<String> completions, List<String> feedback) {

    public DatasetSnapshot {
        lines = List.copyOf(lines);
        completions = List.copyOf(completions);
        feedback = List.copyOf(feedback);
    }
}
