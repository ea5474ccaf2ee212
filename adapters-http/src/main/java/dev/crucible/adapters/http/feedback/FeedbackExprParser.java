package dev.crucible.adapters.http.feedback;

import static dev.crucible.domain.feedback.FeedbackQueryLimits.MAX_DEPTH;
import static dev.crucible.domain.feedback.FeedbackQueryLimits.MAX_LIST;
import static dev.crucible.domain.feedback.FeedbackQueryLimits.MAX_TERMS;

import dev.crucible.domain.feedback.FeedbackExpr;
import dev.crucible.domain.feedback.FeedbackField;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Parses the {@code query} of a feedback query or purge, {@code {"$expr": <operation>}}, into a
 * {@link FeedbackExpr}. Each operator or operand is an object with exactly one key. Refusals name {@code query}.
 */
final class FeedbackExprParser {

    private static final Set<String> OPERATIONS = Set.of("$and", "$or", "$not", "$eq", "$gt", "$gte", "$lt", "$lte",
            "$in", "$contains");

    private int terms;

    private FeedbackExprParser() {
    }

    /** Parses {@code {"$expr": <operation>}}; the top level must be an operation, not a bare operand. */
    static Outcome<FeedbackExpr> parseQuery(Object query) {
        try {
            if (!(query instanceof Map<?, ?> map) || map.size() != 1 || !map.containsKey("$expr")) {
                throw new Unparsable("query must be an object with the single key $expr");
            }
            if (!(map.get("$expr") instanceof Map<?, ?> expr) || expr.size() != 1
                    || !OPERATIONS.contains(String.valueOf(expr.keySet().iterator().next()))) {
                throw new Unparsable("query.$expr must be an operation, one of "
                        + OPERATIONS.stream().sorted().toList());
            }
            return Outcome.done(new FeedbackExprParser().expr(expr, 1));
        } catch (Unparsable e) {
            return Outcome.refused(Refusal.invalid("query", e.getMessage()));
        }
    }

    private FeedbackExpr expr(Object node, int depth) {
        if (depth > MAX_DEPTH) {
            throw new Unparsable("query is nested deeper than " + MAX_DEPTH + " levels");
        }
        if (++terms > MAX_TERMS) {
            throw new Unparsable("query has more than " + MAX_TERMS + " terms");
        }
        if (!(node instanceof Map<?, ?> map) || map.size() != 1
                || !(map.keySet().iterator().next() instanceof String)) {
            throw new Unparsable("a query operand must be an object with exactly one operator key, got "
                    + JsonReader.describe(node));
        }
        String op = (String) map.keySet().iterator().next();
        Object arg = map.get(op);
        return switch (op) {
            case "$literal" -> literal(arg);
            case "$getField" -> new FeedbackExpr.GetField(field(arg));
            case "$convert" -> convert(arg, depth);
            case "$and" -> new FeedbackExpr.And(operands(op, arg, depth, 1));
            case "$or" -> new FeedbackExpr.Or(operands(op, arg, depth, 1));
            case "$not" -> new FeedbackExpr.Not(exactly(op, arg, depth, 1).getFirst());
            case "$eq", "$gt", "$gte", "$lt", "$lte" -> {
                List<FeedbackExpr> pair = exactly(op, arg, depth, 2);
                FeedbackExpr.Comparison comparison =
                        FeedbackExpr.Comparison.valueOf(op.substring(1).toUpperCase(Locale.ROOT));
                yield new FeedbackExpr.Compare(comparison, pair.get(0), pair.get(1));
            }
            case "$in" -> in(arg, depth);
            case "$contains" -> contains(arg, depth);
            default -> throw new Unparsable("Unknown query operator: " + op);
        };
    }

    private static FeedbackExpr.Literal literal(Object value) {
        return new FeedbackExpr.Literal(switch (value) {
            case null -> null;
            case String s -> s;
            case Boolean b -> b;
            case Long l -> l;
            case Integer i -> i.longValue();
            case Short s -> s.longValue();
            case Byte b -> b.longValue();
            case Double d -> d;
            case Float f -> Double.parseDouble(f.toString());
            case BigDecimal big -> big.doubleValue();
            default -> throw new Unparsable("$literal must be a string, a number within 64 bits, a boolean or "
                    + "null, got " + JsonReader.describe(value));
        });
    }

    private static FeedbackField field(Object name) {
        if (!(name instanceof String s)) {
            throw new Unparsable("$getField must be a field name, got " + JsonReader.describe(name));
        }
        return FeedbackField.parse(s).orElseThrow(() -> new Unparsable("Unknown field: " + s));
    }

    private FeedbackExpr convert(Object arg, int depth) {
        Map<?, ?> map = object("$convert", arg, Set.of("input", "to"));
        if (!(map.get("to") instanceof String to)
                || !Set.of("double", "string", "int", "bool", "exists").contains(to)) {
            throw new Unparsable("$convert.to must be one of double, string, int, bool, exists, got "
                    + JsonReader.describe(map.get("to")));
        }
        return new FeedbackExpr.Convert(required("$convert", map, "input", depth),
                FeedbackExpr.ConvertTo.valueOf(to.toUpperCase(Locale.ROOT)));
    }

    private FeedbackExpr in(Object arg, int depth) {
        List<?> pair = list("$in", arg);
        if (pair.size() != 2 || !(pair.get(1) instanceof List<?> candidates)) {
            throw new Unparsable("$in takes [operand, [operands]]");
        }
        return new FeedbackExpr.In(expr(pair.get(0), depth + 1), operands("$in", candidates, depth, 0));
    }

    private FeedbackExpr contains(Object arg, int depth) {
        Map<?, ?> map = object("$contains", arg, Set.of("input", "substr", "case_insensitive"));
        Object caseInsensitive = map.get("case_insensitive");
        if (caseInsensitive != null && !(caseInsensitive instanceof Boolean)) {
            throw new Unparsable("$contains.case_insensitive must be a boolean, got "
                    + JsonReader.describe(caseInsensitive));
        }
        return new FeedbackExpr.Contains(required("$contains", map, "input", depth),
                required("$contains", map, "substr", depth), Boolean.TRUE.equals(caseInsensitive));
    }

    private List<FeedbackExpr> exactly(String op, Object arg, int depth, int count) {
        List<FeedbackExpr> operands = operands(op, arg, depth, 0);
        if (operands.size() != count) {
            throw new Unparsable(op + " takes exactly " + count + " operand" + (count == 1 ? "" : "s") + ", got "
                    + operands.size());
        }
        return operands;
    }

    private List<FeedbackExpr> operands(String op, Object arg, int depth, int min) {
        List<?> items = list(op, arg);
        if (items.size() < min) {
            throw new Unparsable(op + " requires at least one operand");
        }
        if (items.size() > MAX_LIST) {
            throw new Unparsable(op + " has " + items.size() + " operands, at most " + MAX_LIST + " are allowed");
        }
        List<FeedbackExpr> parsed = new ArrayList<>(items.size());
        for (Object item : items) {
            parsed.add(expr(item, depth + 1));
        }
        return parsed;
    }

    private FeedbackExpr required(String op, Map<?, ?> map, String key, int depth) {
        if (!map.containsKey(key)) {
            throw new Unparsable(op + "." + key + " is required");
        }
        return expr(map.get(key), depth + 1);
    }

    private static List<?> list(String op, Object arg) {
        if (!(arg instanceof List<?> items)) {
            throw new Unparsable(op + " takes a list of operands, got " + JsonReader.describe(arg));
        }
        return items;
    }

    private static Map<?, ?> object(String op, Object arg, Set<String> allowed) {
        if (!(arg instanceof Map<?, ?> map)) {
            throw new Unparsable(op + " takes an object, got " + JsonReader.describe(arg));
        }
        for (Object key : map.keySet()) {
            if (!allowed.contains(key)) {
                throw new Unparsable(op + " has an unknown key " + key + "; allowed: "
                        + allowed.stream().sorted().toList());
            }
        }
        return map;
    }

    /** Stops a parse with a message; caught in {@link #parseQuery} and never escapes it. */
    private static final class Unparsable extends RuntimeException {
        Unparsable(String message) {
            super(message, null, false, false);
        }
    }
}
