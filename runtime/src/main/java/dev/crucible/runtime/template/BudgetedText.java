package dev.crucible.runtime.template;

/**
 * A string as a pattern reads it, with the compile's {@link Budget} checked every few thousand characters read, so a
 * regex that backtracks on a tenant's code is stopped at the deadline instead of running for minutes. Confined to
 * the compiling thread, like the matcher that reads it.
 */
final class BudgetedText implements CharSequence {

    private static final int CHECK_EVERY = 4096;

    private final String text;
    private final Budget budget;
    private int reads;

    BudgetedText(String text, Budget budget) {
        this.text = text;
        this.budget = budget;
    }

    @Override
    public int length() {
        return text.length();
    }

    @Override
    public char charAt(int index) {
        if (++reads == CHECK_EVERY) {
            reads = 0;
            budget.tick();
        }
        return text.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return text.substring(start, end);
    }

    @Override
    public String toString() {
        return text;
    }
}
