package dev.crucible.adapters.http.dataset;

import dev.crucible.application.dataset.DatasetContent;
import dev.crucible.application.dataset.ReadDatasetContentUseCase;
import dev.crucible.application.job.dataset.JsonLineParser;
import dev.crucible.domain.dataset.DatasetKind;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.RefusalException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An RL job's {@code dataset_id}: the caller's {@code rl} dataset, its rows read as the request's
 * {@code trajectory_groups} would be, so that the same reader checks them.
 *
 * @param rows   the dataset's rows and kind; not found ({@code dataset_id}) as any dataset route
 * @param groups {@code {"trajectory_groups": [row, ...]}}
 */
public record RlDatasetGroups(DatasetContent rows, JsonReader groups) {

    /** The dataset {@code id} of {@code caller} as trajectory groups; a dataset of another kind is a 400. */
    public static RlDatasetGroups read(ReadDatasetContentUseCase content, JsonLineParser parser, Caller caller,
            String id) {
        DatasetContent rows = RefusalException.unwrap(content.content(caller, id));
        if (rows.dataset().kind() != DatasetKind.RL) {
            throw RefusalException.invalid("dataset_id", "dataset_id " + id + " is a "
                    + rows.dataset().kind().wireName() + " dataset; an RL job trains on an rl dataset");
        }
        List<Object> groups = new ArrayList<>();
        for (String line : rows) {
            groups.add(parser.parse(line));
        }
        return new RlDatasetGroups(rows, new JsonReader(Map.of("trajectory_groups", groups), ""));
    }
}
