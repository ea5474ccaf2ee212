package dev.crucible.adapters.http.feedback;

import dev.crucible.domain.feedback.FeedbackColumn;
import dev.crucible.domain.feedback.FeedbackExpr;
import dev.crucible.domain.feedback.FeedbackField;
import dev.crucible.domain.feedback.FeedbackPurge;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads the body of {@code /feedback/purge}, {@code {project_id, query}}, allowing for safety only deletion by id
 * as Weave's {@code validate_feedback_purge_req} does: {@code $expr} must be
 * {@code {"$eq": [{"$getField": "id"}, {"$literal": "<id>"}]}} or an {@code $or} of those, with Weave's messages.
 */
final class FeedbackPurgeReader {

    static final String MESSAGE_INVALID_FEEDBACK_PURGE =
            "Can only purge feedback by specifying one or more feedback ids";
    /** What Weave says about a bad item inside {@code $or} (its generic message, not the feedback one). */
    static final String MESSAGE_INVALID_PURGE = "Can only purge by specifying one or more ids";

    private FeedbackPurgeReader() {
    }

    static Outcome<FeedbackPurge> read(Map<String, Object> body) {
        return JsonReader.read(body, Set.of("project_id", "query"), b -> {
            ProjectId project = FeedbackDraftReader.project(b);
            if (!b.present("query")) {
                throw JsonReader.fail("query", "query is required");
            }
            return project;
        }).then(project -> FeedbackExprParser.parseQuery(body.get("query"))
                .then(FeedbackPurgeReader::ids)
                .map(ids -> new FeedbackPurge(project, ids)));
    }

    /** The ids of an id-only purge expression, or Weave's refusal. */
    static Outcome<List<String>> ids(FeedbackExpr expr) {
        List<String> ids = new ArrayList<>();
        String problem = switch (expr) {
            case FeedbackExpr.Compare c when c.op() == FeedbackExpr.Comparison.EQ ->
                    oneId(c, MESSAGE_INVALID_FEEDBACK_PURGE, ids);
            case FeedbackExpr.Or or -> {
                String first = null;
                for (FeedbackExpr item : or.operands()) {
                    first = oneId(item, MESSAGE_INVALID_PURGE, ids);
                    if (first != null) {
                        break;
                    }
                }
                yield first;
            }
            default -> MESSAGE_INVALID_FEEDBACK_PURGE;
        };
        return problem == null ? Outcome.done(ids) : Outcome.refused(Refusal.invalid("query", problem));
    }

    /** Weave's {@code validate_purge_req_one}: adds the id and returns null, or returns the problem. */
    private static String oneId(FeedbackExpr expr, String invalidMessage, List<String> ids) {
        if (!(expr instanceof FeedbackExpr.Compare c) || c.op() != FeedbackExpr.Comparison.EQ) {
            return "Expected key eq_, got " + pythonKey(expr);
        }
        if (!(c.left() instanceof FeedbackExpr.GetField get)) {
            return "Expected key get_field_, got " + pythonKey(c.left());
        }
        if (!(get.field() instanceof FeedbackField.Column col) || col.column() != FeedbackColumn.ID) {
            return invalidMessage;
        }
        if (!(c.right() instanceof FeedbackExpr.Literal literal)) {
            return "Expected key literal_, got " + pythonKey(c.right());
        }
        if (!(literal.value() instanceof String id)) {
            return "Expected value of type <class 'str'>, got <class '" + pythonType(literal.value()) + "'>";
        }
        ids.add(id);
        return null;
    }

    /** The key Weave's model dump gives an expression node, for its messages. */
    private static String pythonKey(FeedbackExpr expr) {
        return switch (expr) {
            case FeedbackExpr.Literal l -> "literal_";
            case FeedbackExpr.GetField g -> "get_field_";
            case FeedbackExpr.Convert c -> "convert_";
            case FeedbackExpr.And a -> "and_";
            case FeedbackExpr.Or o -> "or_";
            case FeedbackExpr.Not n -> "not_";
            case FeedbackExpr.Compare c -> c.op().name().toLowerCase(Locale.ROOT) + "_";
            case FeedbackExpr.In i -> "in_";
            case FeedbackExpr.Contains c -> "contains_";
        };
    }

    private static String pythonType(Object value) {
        return switch (value) {
            case null -> "NoneType";
            case Boolean b -> "bool";
            case Long l -> "int";
            case Double d -> "float";
            default -> value.getClass().getSimpleName();
        };
    }
}
