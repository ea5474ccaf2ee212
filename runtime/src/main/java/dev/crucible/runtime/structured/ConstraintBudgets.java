package dev.crucible.runtime.structured;

/**
 * The bounds a tenant's structured-output constraint is compiled and enforced under, so that no regex, JSON schema
 * or grammar can hold the CPU or the heap: each is checked inside the loop that spends it, and past it the
 * constraint is refused (at compile) or the request ends with a refusal (while generating), naming the setting.
 *
 * @param maxAutomatonSize the largest automaton (states plus transitions) a regex, JSON schema, structural tag or a
 *                         grammar's regular parts may expand to (nested counts multiplied out, {@code $ref}s
 *                         unrolled), checked while they expand ({@value #MAX_AUTOMATON_SIZE_SETTING})
 * @param maxGrammarSymbols the most symbols (rule references and terminals over every production, repetitions
 *                         unrolled) a grammar may compile to ({@value #MAX_GRAMMAR_SYMBOLS_SETTING})
 * @param maxParseWork     the most Earley items a grammar's parse may add for one generated token, its token mask
 *                         included ({@value #MAX_PARSE_WORK_SETTING}); an ambiguous grammar ({@code x ::= x x})
 *                         costs more with each byte and ends there, rather than slowing every other request on the
 *                         model's shared generation step
 */
public record ConstraintBudgets(int maxAutomatonSize, int maxGrammarSymbols, int maxParseWork) {

    public static final String MAX_AUTOMATON_SIZE_SETTING = "crucible.structured-outputs.max-automaton-size";
    public static final String MAX_GRAMMAR_SYMBOLS_SETTING = "crucible.structured-outputs.max-grammar-symbols";
    public static final String MAX_PARSE_WORK_SETTING = "crucible.structured-outputs.max-parse-work";

    /**
     * The defaults: every schema of the test suites fits in 150,000 (arbitrary JSON four levels deep, a schema
     * without a type, is about 69,000; {@code json_object} about 35,000; arrays nested 11 deep about 140,000), and a
     * refused one stops after building about that much, a second at most; the costliest mask of a JSON-like grammar
     * over a 150k-token vocabulary needs about 270,000 items.
     */
    public static final ConstraintBudgets DEFAULTS = new ConstraintBudgets(150_000, 100_000, 1_000_000);

    public ConstraintBudgets {
        positive(maxAutomatonSize, MAX_AUTOMATON_SIZE_SETTING);
        positive(maxGrammarSymbols, MAX_GRAMMAR_SYMBOLS_SETTING);
        positive(maxParseWork, MAX_PARSE_WORK_SETTING);
    }

    private static void positive(int value, String setting) {
        if (value <= 0) {
            throw new IllegalArgumentException(setting + " must be positive, got " + value);
        }
    }
}
