package dev.crucible.adapters.http.dataset;

import dev.crucible.domain.dataset.CheckpointRef;
import dev.crucible.domain.dataset.Dataset;
import dev.crucible.domain.dataset.DatasetRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Datasets, lineage and checkpoints on the wire. */
public final class DatasetViews {

    private DatasetViews() {
    }

    /**
     * {@code {"id", "object": "dataset", "name", "kind", "project", "created_at", "rows", "filter", "feedback",
     * "reward"?, "completion_count", "feedback_count"}}, {@code created_at} in Unix seconds.
     */
    static Map<String, Object> dataset(Dataset dataset) {
        Map<String, Object> body = identity(dataset);
        body.put("rows", dataset.rows());
        for (String key : List.of("filter", "feedback", "reward")) {
            if (dataset.query().containsKey(key)) {
                body.put(key, dataset.query().get(key));
            }
        }
        body.put("completion_count", dataset.completions().size());
        body.put("feedback_count", dataset.feedback().size());
        return body;
    }

    /** The request's filter, feedback and reward, normalised, as a dataset shows them. */
    static Map<String, Object> query(DatasetRequest request) {
        Map<String, Object> filter = new LinkedHashMap<>();
        request.filter().model().ifPresent(model -> filter.put("model", model));
        filter.put("metadata", request.filter().metadata());
        request.filter().createdAfter().ifPresent(t -> filter.put("created_after", t.getEpochSecond()));
        request.filter().createdBefore().ifPresent(t -> filter.put("created_before", t.getEpochSecond()));
        Map<String, Object> feedback = new LinkedHashMap<>();
        feedback.put("type", request.feedback().type());
        if (!request.feedback().path().isEmpty()) {
            feedback.put("payload_path", String.join(".", request.feedback().path()));
        }
        request.feedback().equals().ifPresent(value -> feedback.put("equals", value));
        request.feedback().min().ifPresent(min -> feedback.put("min", min));
        request.feedback().max().ifPresent(max -> feedback.put("max", max));
        Map<String, Object> query = new LinkedHashMap<>();
        query.put("filter", filter);
        if (request.rewardModel().isEmpty()) {
            query.put("feedback", feedback);
        }
        request.rewardModel().ifPresent(model -> query.put("reward", Map.of("model", model)));
        return query;
    }

    /** A dataset in a checkpoint's lineage: its id, name, kind, and the completion and feedback ids it holds. */
    static Map<String, Object> lineage(Dataset dataset) {
        Map<String, Object> body = identity(dataset);
        body.put("completion_ids", dataset.completions());
        body.put("feedback_ids", dataset.feedback());
        return body;
    }

    /** What every view of a dataset starts with: {@code id, object, name, kind, project, created_at}. */
    private static Map<String, Object> identity(Dataset dataset) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", dataset.id().toString());
        body.put("object", "dataset");
        body.put("name", dataset.name());
        body.put("kind", dataset.kind().wireName());
        body.put("project", dataset.project());
        body.put("created_at", dataset.created().getEpochSecond());
        return body;
    }

    /** Checkpoints named by lineage: {@code [{"model_id", "step"}]}. */
    public static List<Map<String, Object>> checkpoints(List<CheckpointRef> checkpoints) {
        return checkpoints.stream().<Map<String, Object>>map(c -> {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("model_id", c.model().toString());
            body.put("step", c.step());
            return body;
        }).toList();
    }
}
