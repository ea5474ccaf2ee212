package dev.crucible.adapters.http.feedback;

import static dev.crucible.domain.feedback.FeedbackQueryLimits.MAX_LIST;

import dev.crucible.domain.feedback.FeedbackExpr;
import dev.crucible.domain.feedback.FeedbackField;
import dev.crucible.domain.feedback.FeedbackQuery;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.feedback.SortKey;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads the body of {@code /feedback/query}: {@code project_id}, {@code fields}, {@code query}, {@code sort_by},
 * {@code limit}, {@code offset}, with Weave's messages where it has them ({@code Unknown field: X},
 * {@code Limit must be non-negative}, {@code Offset must be non-negative}).
 */
final class FeedbackQueryReader {

    private static final Set<String> KEYS = Set.of("project_id", "fields", "query", "sort_by", "limit", "offset");

    private FeedbackQueryReader() {
    }

    static Outcome<FeedbackQuery> read(Map<String, Object> body) {
        return JsonReader.read(body, KEYS, b -> new Query(FeedbackDraftReader.project(b), fields(b), sortBy(b),
                count(b, "limit", "Limit"), count(b, "offset", "Offset"))).then(query -> {
                    if (body.get("query") == null) {
                        return Outcome.done(query.build(Optional.empty()));
                    }
                    return FeedbackExprParser.parseQuery(body.get("query")).map(e -> query.build(Optional.of(e)));
                });
    }

    /** The parts read before the filter expression. */
    private record Query(ProjectId project, List<FeedbackField> fields, List<SortKey> sortBy, OptionalLong limit,
            OptionalLong offset) {
        FeedbackQuery build(Optional<FeedbackExpr> filter) {
            return new FeedbackQuery(project, fields, filter, sortBy, limit, offset);
        }
    }

    private static List<FeedbackField> fields(JsonReader b) {
        List<FeedbackField> fields = new ArrayList<>();
        for (Object name : list(b, "fields")) {
            if (!(name instanceof String s)) {
                throw JsonReader.fail("fields", "fields must hold field names, got " + JsonReader.describe(name));
            }
            fields.add(field(s, "fields"));
        }
        return fields;
    }

    private static List<SortKey> sortBy(JsonReader b) {
        List<SortKey> keys = new ArrayList<>();
        for (Object item : list(b, "sort_by")) {
            if (!(item instanceof Map<?, ?> entry) || !(entry.get("field") instanceof String field)
                    || !Set.of("field", "direction").containsAll(entry.keySet())) {
                throw JsonReader.fail("sort_by", "sort_by entries must be {field, direction}, got "
                        + JsonReader.describe(item));
            }
            Object direction = entry.get("direction");
            SortOrder order = direction instanceof String d ? SortOrder.parse(d).orElse(null) : null;
            if (order == null) {
                throw JsonReader.fail("sort_by", "sort_by direction must be 'asc' or 'desc', got "
                        + JsonReader.describe(direction));
            }
            keys.add(new SortKey(field(field, "sort_by"), order));
        }
        return keys;
    }

    private static FeedbackField field(String name, String param) {
        return FeedbackField.parse(name).orElseThrow(() -> JsonReader.fail(param, "Unknown field: " + name));
    }

    private static List<?> list(JsonReader b, String key) {
        Object value = b.raw(key);
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> items)) {
            throw JsonReader.fail(key, key + " must be a list, got " + JsonReader.describe(value));
        }
        if (items.size() > MAX_LIST) {
            throw JsonReader.fail(key,
                    key + " has " + items.size() + " entries, at most " + MAX_LIST + " are allowed");
        }
        return items;
    }

    private static OptionalLong count(JsonReader b, String key, String label) {
        Object value = b.raw(key);
        if (value == null) {
            return OptionalLong.empty();
        }
        if (!(value instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())
                || Math.abs(n.doubleValue()) >= 0x1p62) {
            throw JsonReader.fail(key, key + " must be an integer, got " + JsonReader.describe(value));
        }
        if (n.longValue() < 0) {
            throw JsonReader.fail(key, label + " must be non-negative");
        }
        return OptionalLong.of(n.longValue());
    }
}
