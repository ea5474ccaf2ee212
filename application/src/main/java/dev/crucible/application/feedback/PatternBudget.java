package dev.crucible.application.feedback;

import java.util.HashMap;
import java.util.Map;

/**
 * The pattern search of one check of a value against a spec: each pattern compiled once ({@link EcmaPattern}, linear
 * time), and every search paid for before it runs, at most {@link SpecLimits#maxCheckWork()} in all: a step per
 * character of a pattern compiled, and the pattern's size times the text's length plus one per search. Not
 * thread-safe: one per check.
 */
final class PatternBudget implements JsonSchemaValidator.PatternSearch {

    private final SpecLimits limits;
    private final Map<String, EcmaPattern> patterns = new HashMap<>();
    private long work;

    PatternBudget(SpecLimits limits) {
        this.limits = limits;
    }

    @Override
    public boolean find(String pattern, String text) {
        EcmaPattern compiled = patterns.get(pattern);
        if (compiled == null) {
            spend(pattern.length());
            compiled = EcmaPattern.compile(pattern, limits.maxPatternSize());
            patterns.put(pattern, compiled);
        }
        // RE2/J's work per character of text is at most proportional to the pattern's size
        spend(product(compiled.size(), text.length() + 1L));
        return compiled.find(text);
    }

    private static long product(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** Counts {@code steps} of work, stopping the check once it is past the bound. */
    private void spend(long steps) {
        work = steps > limits.maxCheckWork() - work ? Long.MAX_VALUE : work + steps;
        if (work > limits.maxCheckWork()) {
            throw new JsonSchemaValidator.TooMuchWork(limits.maxCheckWork());
        }
    }
}
