package dev.crucible.runtime.structured;

import org.apache.lucene.util.automaton.Automaton;

/**
 * Counts the automaton states one compile expands a constraint to, and stops it past {@code max}: each operation
 * that copies an automaton (a repeat, a concatenation, an array whose item stands twice) is checked before it runs
 * by the size it will produce, and each result after, so a nested count or a deep schema is refused while it is
 * still small instead of after it has filled the heap. Immutable.
 */
final class StateBudget {

    /** No bound: for the server's own fixed patterns (JSON numbers, whitespace), which are small. */
    static final StateBudget UNBOUNDED = new StateBudget(Integer.MAX_VALUE);

    private final long max;

    StateBudget(long max) {
        this.max = max;
    }

    /** {@code automaton}, once its states are known to be within the bound. */
    Automaton check(Automaton automaton) {
        reserve(automaton.getNumStates());
        return automaton;
    }

    /** Refuses an operation that would build {@code states} states (a product of counts may overflow no long). */
    void reserve(long states) {
        if (states > max) {
            throw new InvalidConstraintException("the constraint expands to more than " + max
                    + " automaton states (nested repetitions multiply); the bound is "
                    + ConstraintBudgets.MAX_STATES_SETTING);
        }
    }

    /** Refuses {@code copies} copies of {@code automaton} before they are made. */
    void reserveCopies(Automaton automaton, long copies) {
        reserve(Math.multiplyHigh(automaton.getNumStates(), copies) != 0 ? Long.MAX_VALUE
                : (long) automaton.getNumStates() * Math.max(1, copies));
    }
}
