package dev.crucible.runtime.structured;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.lucene.util.automaton.Automata;
import org.apache.lucene.util.automaton.Automaton;
import org.apache.lucene.util.automaton.Operations;

/**
 * Compiles structured-output constraints (regex, choice, JSON schema, any JSON object, grammar, structural tags) and
 * keeps the last few
 * compiled, since clients repeat the same schema. Refusals name the request field given as {@code param}.
 * Thread-safe.
 */
public final class OutputConstraints {

    /** xgrammar's default whitespace between JSON tokens. */
    public static final String ANY_WHITESPACE = "[ \\n\\t]*";

    private final Map<String, OutputConstraint> compiled;
    private final ConstraintBudgets budgets;

    /** Compiles under {@link ConstraintBudgets#DEFAULTS}. */
    public OutputConstraints(int capacity) {
        this(capacity, ConstraintBudgets.DEFAULTS);
    }

    /**
     * @param capacity how many compiled constraints to keep, least recently used dropped first
     * @param budgets  what each compile, and each grammar's parse while generating, may spend
     */
    public OutputConstraints(int capacity, ConstraintBudgets budgets) {
        this.compiled = new LruMap<>(capacity);
        this.budgets = budgets;
    }

    /** Output that {@code re.fullmatch}es {@code pattern} (Python syntax, the subset {@code RegexParser} reads). */
    public Outcome<OutputConstraint> regex(String param, String pattern) {
        return compile(param, "regex:" + pattern, () -> RegexParser.parse(pattern, states()),
                "Failed to transform regex into a grammar: ");
    }

    /** Output equal to one of {@code choices}. */
    public Outcome<OutputConstraint> choice(String param, List<String> choices) {
        return compile(param, "choice:" + JsonText.of(choices), () -> {
            states().reserve(choices.stream().mapToLong(String::length).sum());
            return Operations.union(choices.stream().map(Automata::makeString).toList());
        }, "Invalid choice: ");
    }

    /**
     * Output that is JSON text valid against {@code schema} (a map or boolean, parsed JSON).
     *
     * @param whitespace         what may stand between JSON tokens (a regex); empty for none
     * @param forbidAdditional   objects never take keys beyond their {@code properties}
     */
    public Outcome<OutputConstraint> jsonSchema(String param, Object schema, String whitespace,
            boolean forbidAdditional) {
        return compile(param, "json:" + forbidAdditional + ":" + whitespace + ":" + JsonText.of(schema),
                () -> JsonSchemaCompiler.compile(schema, language(whitespace), forbidAdditional, states()),
                "The provided JSON schema contains features not supported by Crucible's structured outputs: ");
    }

    /** Output that is a JSON object, nesting at most {@link JsonLanguage#ANY_DEPTH} levels. */
    public Outcome<OutputConstraint> jsonObject(String param, String whitespace) {
        return compile(param, "json_object:" + whitespace, () -> {
            JsonLanguage json = language(whitespace);
            return states().check(json.map(states().check(json.any(JsonLanguage.ANY_DEPTH - 1))));
        }, "Invalid whitespace_pattern: ");
    }

    /**
     * Output in the language of the context-free grammar {@code source} (GBNF in xgrammar's dialect, starting at
     * rule {@code root}; see {@link GrammarParser}). A grammar that does not parse is refused with the rule and the
     * line and column at fault.
     */
    public Outcome<OutputConstraint> grammar(String param, String source) {
        return compileLanguage(param, "grammar:" + source, () -> ByteGrammar.compile(source, budgets),
                "Invalid grammar: ");
    }

    /**
     * Output under vLLM's (xgrammar's) structural tag {@code spec}: free text in which no trigger appears, except
     * where a structure starts: its begin tag, JSON matching its schema, its end tag (see {@link StructuralTags}).
     * Refusals start with vLLM's {@code Invalid response_format structural_tag specification} when the tag came in
     * {@code response_format}.
     *
     * @param spec the parsed {@code {"structures": [...], "triggers": [...]}} object
     */
    public Outcome<OutputConstraint> structuralTag(String param, Object spec, String whitespace,
            boolean forbidAdditional) {
        return compile(param, "structural_tag:" + forbidAdditional + ":" + whitespace + ":" + JsonText.of(spec),
                () -> StructuralTags.compile(spec, language(whitespace), forbidAdditional, states()),
                "Invalid " + ("response_format".equals(param) ? "response_format " : "")
                        + "structural_tag specification: ");
    }

    private JsonLanguage language(String whitespace) {
        StateBudget states = states();
        return new JsonLanguage(whitespace.isEmpty() ? Automata.makeEmptyString()
                : RegexParser.parse(whitespace, states), states);
    }

    private StateBudget states() {
        return new StateBudget(budgets.maxAutomatonSize());
    }

    private Outcome<OutputConstraint> compile(String param, String key, Supplier<Automaton> language,
            String messagePrefix) {
        return compileLanguage(param, key, () -> ByteDfa.of(language.get()), messagePrefix);
    }

    private Outcome<OutputConstraint> compileLanguage(String param, String key,
            Supplier<ConstraintLanguage> language, String messagePrefix) {
        synchronized (compiled) {
            OutputConstraint cached = compiled.get(key);
            if (cached != null) {
                return Outcome.done(cached);
            }
        }
        OutputConstraint constraint;
        try {
            constraint = new OutputConstraint(key, language.get());
        } catch (InvalidConstraintException e) {
            return Outcome.refused(Refusal.invalid(param, messagePrefix + e.getMessage()));
        }
        synchronized (compiled) {
            compiled.put(key, constraint);
        }
        return Outcome.done(constraint);
    }
}
