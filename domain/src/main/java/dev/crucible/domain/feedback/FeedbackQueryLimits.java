package dev.crucible.domain.feedback;

/** Bounds on feedback queries and purges, so that one request cannot make unbounded work. */
public final class FeedbackQueryLimits {

    /** Deepest nesting of operators and operands in {@code query.$expr}. */
    public static final int MAX_DEPTH = 64;
    /** Most items in one list: operands of {@code $and}/{@code $or}/{@code $in}, {@code fields}, {@code sort_by}. */
    public static final int MAX_LIST = 1000;
    /** Most operators and operands in one expression. */
    public static final int MAX_TERMS = 10_000;

    private FeedbackQueryLimits() {
    }
}
