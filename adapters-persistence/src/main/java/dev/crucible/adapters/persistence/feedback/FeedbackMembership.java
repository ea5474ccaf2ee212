package dev.crucible.adapters.persistence.feedback;

import dev.crucible.adapters.persistence.feedback.SqlFragment.Kind;
import dev.crucible.domain.feedback.FeedbackExpr.Comparison;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code $in}: whether the needle equals one of the candidates, each comparison as {@code $eq} makes it. The SQL
 * names the needle once per kind of candidate ({@code needle = ANY(ARRAY[...])}), not once per candidate; a needle
 * that is itself an expression is computed once per row in a scalar subquery ({@code OFFSET 0} keeps the planner
 * from inlining it back), so nested {@code $in}s grow the SQL linearly, never doubling it per level.
 */
final class FeedbackMembership {

    private FeedbackMembership() {
    }

    /**
     * @param needleIsLeaf whether the needle's SQL has a constant size (a column, a path, a parameter), which can
     *     then be repeated at no risk
     */
    static SqlFragment in(SqlFragment needle, List<SqlFragment> candidates, boolean needleIsLeaf) {
        if (candidates.isEmpty()) {
            return SqlFragment.of("FALSE", Kind.BOOL);
        }
        Map<Kind, List<SqlFragment>> byKind = new LinkedHashMap<>();
        for (SqlFragment candidate : candidates) {
            byKind.computeIfAbsent(candidate.kind(), k -> new ArrayList<>()).add(candidate);
        }
        if (needleIsLeaf || needle.kind() == Kind.NULL || byKind.size() == 1) {
            return anyOf(needle, byKind);
        }
        SqlFragment tests = anyOf(SqlFragment.of("needle.x", needle.kind()), byKind);
        List<Object> params = new ArrayList<>(tests.params());
        params.addAll(needle.params());
        return new SqlFragment("(SELECT " + tests.sql() + " FROM (SELECT " + needle.sql()
                + " AS x OFFSET 0) AS needle)", params, Kind.BOOL);
    }

    private static SqlFragment anyOf(SqlFragment needle, Map<Kind, List<SqlFragment>> byKind) {
        List<SqlFragment> tests = new ArrayList<>();
        for (Map.Entry<Kind, List<SqlFragment>> group : byKind.entrySet()) {
            if (needle.kind() == Kind.NULL || group.getKey() == Kind.NULL || group.getValue().size() == 1) {
                for (SqlFragment candidate : group.getValue()) {
                    tests.add(FeedbackComparisons.compare(Comparison.EQ, needle, candidate));
                }
            } else {
                tests.add(FeedbackComparisons.equalsAny(needle, group.getValue()));
            }
        }
        return SqlFragment.join(tests, "(", " OR ", ")", Kind.BOOL);
    }
}
