package dev.crucible.runtime.structured;

/**
 * A grammar's parse spent its budget of Earley items on one token ({@link ConstraintBudgets#maxParseWork()}). Thrown
 * inside {@link EarleyChart} and turned into a refusal by {@link ConstraintCursor}, never past it. No stack trace:
 * it is an answer, not a bug.
 */
final class ParseBudgetException extends RuntimeException {

    ParseBudgetException(long items) {
        super("the grammar's parse needs more than " + items + " Earley items for one token", null, false, false);
    }
}
