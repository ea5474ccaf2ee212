package dev.crucible.domain.dataset;

import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.kernel.invariant.NonNull;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A built dataset, without its rows: what it was built from and which stored completions and feedback rows went
 * into it (kept as they were when it was built, whatever happens to them later).
 *
 * @param id          its id
 * @param entity      its owner
 * @param name        the caller's label
 * @param project     the project it read
 * @param kind        the form of its rows
 * @param query       the request's filter, feedback and reward parts as sent back on the wire
 * @param created     when it was built
 * @param rows        how many JSONL lines it holds, at least one
 * @param completions the stored completion ids its rows came from
 * @param feedback    the feedback row ids that chose or scored them
 */
public record Dataset(DatasetId id, EntityName entity, String name, String project, DatasetKind kind,
        Map<String, Object> query, Instant created, int rows, List<String> completions, List<String> feedback) {

    public Dataset {
        NonNull.components(Dataset.class, id, entity, name, project, kind);
        query = Map.copyOf(query);
        Objects.requireNonNull(created, "created");
        if (rows < 1) {
            throw new IllegalArgumentException("a dataset holds at least one row, got " + rows);
        }
        completions = List.copyOf(completions);
        feedback = List.copyOf(feedback);
    }
}
