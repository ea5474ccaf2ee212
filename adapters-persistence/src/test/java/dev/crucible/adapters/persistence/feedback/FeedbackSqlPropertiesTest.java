package dev.crucible.adapters.persistence.feedback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.domain.feedback.FeedbackExpr;
import dev.crucible.domain.feedback.FeedbackExpr.Comparison;
import dev.crucible.domain.feedback.FeedbackExpr.ConvertTo;
import dev.crucible.domain.feedback.FeedbackField;
import dev.crucible.domain.feedback.FeedbackQueryLimits;
import dev.crucible.kernel.refusal.RefusalException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Random feedback queries (every operator, nested up to the parser's depth and up to its number of terms) translate
 * to SQL quickly, and the SQL either stays within a constant number of characters per term or is refused naming
 * {@code query}: no operator multiplies what is below it.
 */
class FeedbackSqlPropertiesTest {

    /** Characters of SQL one term may add, whatever its neighbours (a payload path read as a number is the most). */
    private static final int MAX_CHARS_PER_TERM = 600;

    @Property(tries = 200)
    void everyQueryTranslatesQuicklyToLinearSqlOrIsRefused(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = FeedbackQueryLimits.MAX_DEPTH - 1) int depth,
            @ForAll @IntRange(min = 1, max = 40) int width) {
        RandomQueries queries = new RandomQueries(new Random(seed), width);
        FeedbackExpr expr = queries.spine(depth);
        long started = System.nanoTime();
        try {
            SqlFragment sql = FeedbackSql.condition(expr, FeedbackSqlTest.LIMITS);
            assertTrue(sql.sql().length() <= (long) MAX_CHARS_PER_TERM * queries.terms + 100,
                    sql.sql().length() + " characters for " + queries.terms + " terms");
        } catch (RefusalException e) {
            assertEquals("query", e.refusal().param());
        }
        long ms = (System.nanoTime() - started) / 1_000_000;
        assertTrue(ms < 2_000, "took " + ms + " ms");
    }

    /** Builds random expressions of every operator, counting their terms as the parser does. */
    static final class RandomQueries {
        private final Random random;
        private final int width;
        int terms;

        RandomQueries(Random random, int width) {
            this.random = random;
            this.width = width;
        }

        /** A chain {@code depth} operators deep, each with up to {@code width} shallow siblings. */
        FeedbackExpr spine(int depth) {
            FeedbackExpr expr = leaf();
            for (int i = 0; i < depth && terms < FeedbackQueryLimits.MAX_TERMS - 2 * width; i++) {
                expr = wrap(expr);
            }
            return expr;
        }

        private FeedbackExpr wrap(FeedbackExpr inner) {
            terms++;
            return switch (random.nextInt(8)) {
                case 0 -> new FeedbackExpr.And(with(inner));
                case 1 -> new FeedbackExpr.Or(with(inner));
                case 2 -> new FeedbackExpr.Not(inner);
                case 3 -> new FeedbackExpr.Compare(Comparison.values()[random.nextInt(5)], inner, leaf());
                case 4 -> new FeedbackExpr.In(inner, siblings());
                case 5 -> new FeedbackExpr.Contains(new FeedbackExpr.Convert(inner, ConvertTo.STRING), leaf(),
                        random.nextBoolean());
                default -> new FeedbackExpr.Convert(inner, ConvertTo.values()[random.nextInt(5)]);
            };
        }

        private List<FeedbackExpr> with(FeedbackExpr inner) {
            List<FeedbackExpr> all = new ArrayList<>(siblings());
            all.add(random.nextInt(all.size() + 1), inner);
            return all;
        }

        private List<FeedbackExpr> siblings() {
            List<FeedbackExpr> list = new ArrayList<>();
            for (int i = random.nextInt(width + 1); i > 0; i--) {
                list.add(leaf());
            }
            return list;
        }

        FeedbackExpr leaf() {
            terms++;
            return switch (random.nextInt(7)) {
                case 0 -> new FeedbackExpr.Literal(random.nextLong(-5, 5));
                case 1 -> new FeedbackExpr.Literal(random.nextDouble());
                case 2 -> new FeedbackExpr.Literal(random.nextBoolean());
                case 3 -> new FeedbackExpr.Literal(random.nextBoolean() ? null : "text " + random.nextInt(9));
                case 4 -> new FeedbackExpr.GetField(FeedbackField.parse(random.nextBoolean() ? "created_at"
                        : "feedback_type").orElseThrow());
                default -> new FeedbackExpr.GetField(FeedbackField.parse("payload.p" + random.nextInt(3))
                        .orElseThrow());
            };
        }
    }
}
