package dev.crucible.runtime.structured;

/**
 * The bounds a tenant's structured-output constraint is compiled and enforced under, so that no regex, JSON schema
 * or grammar can hold the CPU or the heap: each is checked inside the loop that spends it, and past it the
 * constraint is refused (at compile) or the request ends with a refusal (while generating), naming the setting.
 *
 * @param maxStates        the most automaton states a regex, JSON schema, structural tag or a grammar's regular
 *                         parts may expand to (nested counts multiplied out, {@code $ref}s unrolled), counted while
 *                         they expand ({@value #MAX_STATES_SETTING})
 * @param maxGrammarSymbols the most symbols (rule references and terminals over every production, repetitions
 *                         unrolled) a grammar may compile to ({@value #MAX_GRAMMAR_SYMBOLS_SETTING})
 * @param maxParseWork     the most Earley items a grammar's parse may add for one generated token, its token mask
 *                         included ({@value #MAX_PARSE_WORK_SETTING}); an ambiguous grammar ({@code x ::= x x})
 *                         costs more with each byte and ends there, rather than slowing every other request on the
 *                         model's shared generation step
 */
public record ConstraintBudgets(int maxStates, int maxGrammarSymbols, int maxParseWork) {

    public static final String MAX_STATES_SETTING = "crucible.structured-outputs.max-states";
    public static final String MAX_GRAMMAR_SYMBOLS_SETTING = "crucible.structured-outputs.max-grammar-symbols";
    public static final String MAX_PARSE_WORK_SETTING = "crucible.structured-outputs.max-parse-work";

    /**
     * The defaults: every schema of the test suites and of the function-calling examples of vLLM and OpenAI fits in
     * 100,000 states (arbitrary JSON four levels deep, {@code json_object}, is about 13,000), and a refused one stops
     * in well under a second; a JSON-like grammar over a 150k vocabulary needs a few thousand items a token.
     */
    public static final ConstraintBudgets DEFAULTS = new ConstraintBudgets(40_000, 100_000, 2_000_000);

    public ConstraintBudgets {
        positive(maxStates, MAX_STATES_SETTING);
        positive(maxGrammarSymbols, MAX_GRAMMAR_SYMBOLS_SETTING);
        positive(maxParseWork, MAX_PARSE_WORK_SETTING);
    }

    private static void positive(int value, String setting) {
        if (value <= 0) {
            throw new IllegalArgumentException(setting + " must be positive, got " + value);
        }
    }
}
