package dev.crucible.runtime.structured;

import org.apache.lucene.util.automaton.Automaton;

/**
 * Bounds the size (states plus transitions) of the automata one compile expands a constraint to, and stops it past {@code max}: each operation
 * that copies an automaton (a repeat, a concatenation, an array whose item stands twice) is checked before it runs
 * by the size it will produce, and each result after, so a nested count or a deep schema is refused while it is
 * still small instead of after it has filled the heap. Everything one compile builds also counts towards a total,
 * {@link #TOTAL_PER_SIZE} times the bound, so many operations each under the bound (a recursive schema's levels)
 * cannot add up to seconds. One per compile, on one thread; {@link #UNBOUNDED} keeps no total.
 */
final class StateBudget {

    /** No bound: for the server's own fixed patterns (JSON numbers, whitespace), which are small. */
    static final StateBudget UNBOUNDED = new StateBudget(Integer.MAX_VALUE);
    /** How many steps building repetitions may take, per unit of the size bound. */
    static final long WORK_PER_SIZE = 100;
    /** How much one compile may build in all (the sizes it checks and reserves), per unit of the size bound. */
    static final long TOTAL_PER_SIZE = 8;

    private final long max;
    private long spent;

    StateBudget(long max) {
        this.max = max;
    }

    /**
     * What an automaton costs to build, keep and determinize: its states plus its transitions (an optional repeat
     * of an optional repeat has few states but a transition from each accepting state to the next copy).
     */
    static long size(Automaton automaton) {
        return (long) automaton.getNumStates() + automaton.getNumTransitions();
    }

    /** {@code automaton}, once its size is known to be within the bound. */
    Automaton check(Automaton automaton) {
        reserve(size(automaton));
        return automaton;
    }

    /** Refuses an operation that would build an automaton of {@code size} (states plus transitions). */
    void reserve(long size) {
        if (this != UNBOUNDED) {
            spent = plus(spent, size);
            if (spent > times(max, TOTAL_PER_SIZE)) {
                throw new InvalidConstraintException("the constraint's compile would build more than "
                        + times(max, TOTAL_PER_SIZE) + " states and transitions in all (a recursive or deeply "
                        + "composed schema repeats its parts); the bound is " + TOTAL_PER_SIZE + " times "
                        + ConstraintBudgets.MAX_AUTOMATON_SIZE_SETTING);
            }
        }
        if (size > max) {
            throw new InvalidConstraintException("the constraint expands to an automaton of more than " + max
                    + " states and transitions (nested repetitions multiply); the bound is "
                    + ConstraintBudgets.MAX_AUTOMATON_SIZE_SETTING);
        }
    }

    /**
     * Refuses {@code copies} copies of {@code automaton} joined one after the other before they are made. Joining
     * copies gives each accepting state of one the first transitions of the next, a cost that comes and goes while
     * Lucene builds the result (duplicates are dropped at the end), so it is counted too: {@code a{0,366}} has 367
     * accepting states, and repeating it again joins each of them to the next copy.
     */
    void reserveCopies(Automaton automaton, long copies) {
        long each = size(automaton) + joins(automaton, automaton);
        long total = times(each, Math.max(1, copies));
        if (nullable(automaton) && copies > 1) {
            // a copy that may be empty passes its predecessors' joins on: each copy is joined to every later one
            total = plus(total, times(joins(automaton, automaton), times(copies, copies - 1) / 2));
        }
        reserve(total);
    }

    /**
     * Refuses {@code a{min,max}} ({@code max} -1: unbounded) before it is built: by the size of the result, and by
     * the work of building it, which is not linear: Lucene joins each accepting state of a copy to the next by
     * scanning the transitions built so far, so {@code (a{0,366}){0,112}}, an automaton of 120,000, takes billions
     * of steps to build. That work is bounded by {@link #WORK_PER_SIZE} times the size bound: {@code \w{0,1000}}
     * takes 6 million, {@code (a{0,10}){100}} 3 million.
     */
    void reserveRepeat(Automaton a, long min, long max) {
        long copies = max < 0 ? min + 1 : max;
        reserveCopies(a, copies);
        // each copy's accepting states are joined to the next copy, each join a scan of what is built so far
        long work = times(times(copies, accepting(a)), times(copies, size(a)));
        if (work > times(this.max, WORK_PER_SIZE)) {
            throw new InvalidConstraintException("the constraint's repetitions would take more than "
                    + times(this.max, WORK_PER_SIZE) + " steps to build (optional copies of a part with many ways to "
                    + "end multiply); the bound is " + WORK_PER_SIZE + " times "
                    + ConstraintBudgets.MAX_AUTOMATON_SIZE_SETTING);
        }
    }

    /**
     * The joins a concatenation adds for its next part {@code next}, given {@code openAccepting}, the accepting states
     * of the earlier parts still joined to whatever comes next: the last part's, and those of every part before it
     * reached through parts that may be empty. {@code (.*)(.*)(.*)} joins each part to every later one.
     */
    static long chainedJoins(long openAccepting, Automaton next) {
        return next.getNumStates() == 0 ? 0 : times(openAccepting, next.getNumTransitions(0));
    }

    /** {@link #chainedJoins}'s {@code openAccepting} once {@code part} has been added after parts with {@code open}. */
    static long openAfter(long open, Automaton part) {
        return plus(nullable(part) ? open : 0, accepting(part));
    }

    /** Whether {@code automaton} accepts the empty string (its initial state accepts). */
    static boolean nullable(Automaton automaton) {
        return automaton.getNumStates() > 0 && automaton.isAccept(0);
    }

    /** What this compile has built so far, in states and transitions. */
    long spent() {
        return spent;
    }

    static long plus(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    private static long times(long a, long b) {
        return Math.multiplyHigh(a, b) != 0 || a * b < 0 ? Long.MAX_VALUE : a * b;
    }

    private static long accepting(Automaton a) {
        long accepting = 0;
        for (int s = 0; s < a.getNumStates(); s++) {
            accepting += a.isAccept(s) ? 1 : 0;
        }
        return accepting;
    }

    /** The transitions joining {@code first} to {@code then} in a concatenation adds (and may drop later). */
    static long joins(Automaton first, Automaton then) {
        if (then.getNumStates() == 0) {
            return 0;
        }
        return times(accepting(first), then.getNumTransitions(0));
    }
}
