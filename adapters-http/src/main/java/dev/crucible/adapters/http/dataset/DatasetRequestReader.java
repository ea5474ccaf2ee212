package dev.crucible.adapters.http.dataset;

import dev.crucible.domain.completion.CompletionMetadata;
import dev.crucible.domain.dataset.DatasetFilter;
import dev.crucible.domain.dataset.DatasetKind;
import dev.crucible.domain.dataset.DatasetRequest;
import dev.crucible.domain.dataset.FeedbackPredicate;
import dev.crucible.domain.tenancy.Names;
import dev.crucible.domain.usage.UsageProject;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.RefusalException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Reads {@code POST /v1/datasets}: {@code {"name", "project"?, "kind", "filter"?: {"model", "metadata",
 * "created_after", "created_before"}, "feedback": {"type", "payload_path"?, "equals"?, "min"?, "max"?},
 * "reward"?: {"model"}}}, times in Unix seconds. Every refusal is a 400 naming the field.
 */
final class DatasetRequestReader {

    private static final Set<String> TOP = Set.of("name", "project", "kind", "filter", "feedback", "reward");
    private static final Set<String> FILTER = Set.of("model", "metadata", "created_after", "created_before");
    private static final Set<String> FEEDBACK = Set.of("type", "payload_path", "equals", "min", "max");
    /** The feedback type a request with a reward model and no feedback carries; no row is read for it. */
    static final String REWARD_MODEL = "reward.model";
    private static final long MAX_SECONDS = 253_402_300_799L;  // 9999-12-31T23:59:59Z

    private DatasetRequestReader() {
    }

    static DatasetRequest read(JsonReader body) {
        body.onlyKnown(TOP);
        String name = storable(body, "name", body.requireString("name"));
        if (name.isEmpty() || name.length() > DatasetRequest.MAX_NAME) {
            throw body.reject("name", "must be 1 to " + DatasetRequest.MAX_NAME + " characters, got " + name.length());
        }
        String project = body.string("project", UsageProject.DEFAULT);
        String problem = Names.problem("project", project);
        if (problem != null) {
            throw JsonReader.fail("project", problem);
        }
        String kindName = body.requireString("kind");
        DatasetKind kind = DatasetKind.of(kindName).orElseThrow(() -> body.reject("kind", "must be one of "
                + Arrays.stream(DatasetKind.values()).map(DatasetKind::wireName).toList() + ", got '"
                + (kindName.length() > 64 ? kindName.substring(0, 64) + "…" : kindName) + "'"));
        DatasetFilter filter = filter(body.object("filter").orElseGet(() -> new JsonReader(Map.of(), "filter")));
        Optional<String> rewardModel = body.object("reward").map(reward -> {
            reward.onlyKnown(Set.of("model"));
            return storable(reward, "model", reward.requireString("model"));
        });
        // With a reward model the answers' scores are its own: feedback is optional and not read.
        FeedbackPredicate feedback = body.object("feedback").map(DatasetRequestReader::feedback)
                .orElseGet(() -> rewardModel.map(model -> new FeedbackPredicate(REWARD_MODEL, List.of(),
                        Optional.empty(), OptionalDouble.empty(), OptionalDouble.empty()))
                        .orElseThrow(() -> body.missing("feedback")));
        if (kind == DatasetKind.SFT && rewardModel.isPresent()) {
            throw body.reject("reward", "is for preference and rl datasets; an sft dataset keeps the answers whose "
                    + "feedback passes");
        }
        if (kind != DatasetKind.SFT && feedback.path().isEmpty() && rewardModel.isEmpty()) {
            throw JsonReader.fail("feedback.payload_path", "feedback.payload_path is required for a "
                    + kind.wireName() + " dataset: the field's value scores the answers");
        }
        return new DatasetRequest(name, project, kind, filter, feedback, rewardModel);
    }

    private static DatasetFilter filter(JsonReader filter) {
        filter.onlyKnown(FILTER);
        Optional<String> model = filter.string("model").map(text -> storable(filter, "model", text));
        Map<String, String> metadata = RefusalException.unwrap(CompletionMetadata.read(filter.path("metadata"),
                filter.raw("metadata"))).pairs();
        Optional<Instant> after = seconds(filter, "created_after");
        Optional<Instant> before = seconds(filter, "created_before");
        if (after.isPresent() && before.isPresent() && !after.get().isBefore(before.get())) {
            throw filter.reject("created_before", "must be after filter.created_after");
        }
        return new DatasetFilter(model, metadata, after, before);
    }

    /** {@code text}, unless it holds what PostgreSQL's text cannot (U+0000). */
    private static String storable(JsonReader reader, String key, String text) {
        if (text.indexOf('\u0000') >= 0) {
            throw reader.reject(key, "must not contain U+0000");
        }
        return text;
    }

    private static Optional<Instant> seconds(JsonReader filter, String key) {
        Object raw = filter.raw(key);
        if (raw == null) {
            return Optional.empty();
        }
        if (!(raw instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.doubleValue() < 0
                || n.doubleValue() > MAX_SECONDS) {
            throw filter.reject(key, "must be a time in Unix seconds (an integer from 0), got "
                    + JsonReader.describe(raw));
        }
        return Optional.of(Instant.ofEpochSecond(n.longValue()));
    }

    private static FeedbackPredicate feedback(JsonReader feedback) {
        feedback.onlyKnown(FEEDBACK);
        String type = storable(feedback, "type", feedback.requireString("type"));
        if (type.isEmpty() || type.length() > 1024) {
            throw feedback.reject("type", "must be 1 to 1024 characters");
        }
        List<String> path = feedback.string("payload_path").map(text -> {
            List<String> segments = List.of(text.split("\\.", -1));
            if (text.length() > 1024 || segments.stream().anyMatch(String::isEmpty)) {
                throw feedback.reject("payload_path", "must be payload field names joined by '.', such as "
                        + "'value' or 'scores.helpful'");
            }
            return segments;
        }).orElse(List.of());
        Optional<Object> equals = Optional.ofNullable(feedback.raw("equals"));
        equals.ifPresent(value -> {
            if (!(value instanceof String || value instanceof Number || value instanceof Boolean)) {
                throw feedback.reject("equals", "must be a string, a number or a boolean, got "
                        + JsonReader.describe(value));
            }
        });
        OptionalDouble min = feedback.number("min").map(OptionalDouble::of).orElse(OptionalDouble.empty());
        OptionalDouble max = feedback.number("max").map(OptionalDouble::of).orElse(OptionalDouble.empty());
        if (path.isEmpty() && (equals.isPresent() || min.isPresent() || max.isPresent())) {
            throw feedback.reject("payload_path", "is required with equals, min or max");
        }
        if (equals.isPresent() && (min.isPresent() || max.isPresent())) {
            throw feedback.reject("equals", "cannot be combined with min or max");
        }
        if (min.isPresent() && max.isPresent() && min.getAsDouble() > max.getAsDouble()) {
            throw feedback.reject("min", "must not exceed feedback.max");
        }
        return new FeedbackPredicate(type, path, equals, min, max);
    }
}
