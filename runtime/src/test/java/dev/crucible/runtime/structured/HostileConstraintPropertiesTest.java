package dev.crucible.runtime.structured;

import static dev.crucible.testsupport.tokenizer.ByteTokenizer.utf8;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.testsupport.tokenizer.ByteTokenizer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Generated constraints, hostile ones included (deep nesting, counts that multiply, ambiguous and unrolling
 * grammars, unbalanced input): every compile answers within a time bound with a constraint or a refusal, never an
 * exception; a grammar that compiles parses each token under its budget or ends with a refusal. The budgets are the
 * defaults, but the parse budget is small, so ambiguity reaches it in few tokens.
 */
class HostileConstraintPropertiesTest {

    /**
     * The CPU time a compile or a parse may take on the calling thread (CPU, not wall-clock time, so other load on a
     * shared machine does not fail the test); an unbounded compile of these takes seconds to hours.
     */
    private static final long CPU_MILLIS = 2_000;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final ConstraintBudgets BUDGETS = new ConstraintBudgets(
            ConstraintBudgets.DEFAULTS.maxAutomatonSize(), ConstraintBudgets.DEFAULTS.maxGrammarSymbols(), 50_000);
    private static final TokenVocabulary VOCABULARY = new TokenVocabulary(new ByteTokenizer(List.of(utf8("<eos>"),
            utf8("a"), utf8("aa"), utf8("aaaa"), utf8("b"), utf8("ab"), utf8("("), utf8(")"), utf8("["), utf8("]"),
            utf8("1"), utf8(","), utf8("\""), utf8("{"), utf8("}"), utf8(":"), utf8("true")), Set.of(0)));

    private static <T> Outcome<T> answered(Supplier<Outcome<T>> compile) {
        long start = THREADS.getCurrentThreadCpuTime();
        Outcome<T> outcome = compile.get();
        long millis = (THREADS.getCurrentThreadCpuTime() - start) / 1_000_000;
        assertTrue(millis < CPU_MILLIS, "answered after " + millis + " ms of CPU");
        return outcome;
    }

    @Property(tries = 25)
    void everyRegexCompilesOrIsRefusedInTime(@ForAll("regexes") String regex) {
        answered(() -> new OutputConstraints(1, BUDGETS).regex("structured_outputs", regex));
    }

    @Property(tries = 20)
    void everySchemaCompilesOrIsRefusedInTime(@ForAll("schemas") Object schema) {
        answered(() -> new OutputConstraints(1, BUDGETS).jsonSchema("response_format", schema,
                OutputConstraints.ANY_WHITESPACE, false));
    }

    @Property(tries = 25)
    void everyGrammarCompilesOrIsRefusedInTimeAndParsesUnderItsBudget(@ForAll("grammars") String grammar) {
        Outcome<OutputConstraint> outcome = answered(() -> new OutputConstraints(1, BUDGETS).grammar(
                "structured_outputs", grammar));
        if (!(outcome instanceof Outcome.Done<OutputConstraint> done)) {
            return;
        }
        ConstraintCursor cursor = new ConstraintCursor(new TokenMasks(done.value(), VOCABULARY), Set.of(0), 0);
        long start = THREADS.getCurrentThreadCpuTime();
        try {
            for (int step = 0; step < 200; step++) {
                BitSet allowed = cursor.allowed();
                int token = allowed.nextSetBit(1 + step % 4);
                token = token < 0 ? allowed.nextSetBit(1) : token;
                if (token < 0 || !cursor.advance(token)) {
                    break;
                }
            }
        } catch (RefusalException e) {
            assertTrue(e.getMessage().contains(ConstraintBudgets.MAX_PARSE_WORK_SETTING), e.getMessage());
        }
        long millis = (THREADS.getCurrentThreadCpuTime() - start) / 1_000_000;
        assertTrue(millis < CPU_MILLIS, "200 tokens parsed in " + millis + " ms of CPU");
    }

    /** A repetition count: a thousand, nested a few levels, multiplies past any budget. */
    private static final Arbitrary<Integer> COUNT = Arbitraries.integers().between(0, 1000);

    @Provide
    Arbitrary<String> regexes() {
        Arbitrary<String> atom = Arbitraries.of("a", ".", "[a-z]", "\\d", "(", ")", "a|b", "[^x]", "\\w+", "{");
        return nested(4, atom, inner -> Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(1, atom),
                net.jqwik.api.Tuple.of(3, Combinators.combine(inner, COUNT).as((r, n) -> "(" + r + "){" + n + "}")),
                net.jqwik.api.Tuple.of(2, Combinators.combine(inner, COUNT).as((r, n) -> "(" + r + "){1," + n
                        + "}")),
                net.jqwik.api.Tuple.of(2, Combinators.combine(inner, inner).as((x, y) -> "(" + x + "|" + y + ")*")),
                net.jqwik.api.Tuple.of(1, Combinators.combine(inner, inner).as((x, y) -> x + y)),
                net.jqwik.api.Tuple.of(1, inner.map(r -> "(".repeat(150) + r))));
    }

    @Provide
    Arbitrary<Object> schemas() {
        Arbitrary<Object> leaf = Arbitraries.of(Map.of("type", "integer"), Map.of("type", "string", "maxLength", 1000),
                Map.of("type", "string", "pattern", "(a{100}){100}"), Map.of(), Boolean.TRUE,
                Map.of("type", "wat"), Map.of("enum", List.of(1, "a", true)));
        return nested(12, leaf, inner -> Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(1, leaf),
                net.jqwik.api.Tuple.of(4, inner.map(s -> Map.of("type", "array", "items", s))),
                net.jqwik.api.Tuple.of(2, Combinators.combine(inner, COUNT).as((s, n) -> Map.of("type", "array",
                        "items", s, "maxItems", n))),
                net.jqwik.api.Tuple.of(2, Combinators.combine(inner, inner).as((x, y) -> Map.of("anyOf",
                        List.of(x, y)))),
                net.jqwik.api.Tuple.of(2, Combinators.combine(inner, inner).as((x, y) -> Map.of("type", "object",
                        "properties", Map.of("x", x, "y", y)))),
                net.jqwik.api.Tuple.of(1, inner.map(s -> Map.of("$defs", Map.of("d", s), "type", "array",
                        "items", Map.of("$ref", "#/$defs/d"), "minItems", 3)))).map(o -> o));
    }

    @Provide
    Arbitrary<String> grammars() {
        Arbitrary<String> atom = Arbitraries.of("\"a\"", "x", "x x", "[a-b]", "\"(\" x \")\"", "\"aa\"");
        Arbitrary<String> body = nested(3, atom, inner -> Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(1, atom),
                net.jqwik.api.Tuple.of(2, Combinators.combine(inner, COUNT).as((b, n) -> "(" + b + "){0," + n + "}")),
                net.jqwik.api.Tuple.of(2, Combinators.combine(inner, inner).as((x, y) -> x + " | " + y)),
                net.jqwik.api.Tuple.of(2, inner.map(b -> "x x | " + b)),
                net.jqwik.api.Tuple.of(1, Combinators.combine(inner, inner).as((x, y) -> "(" + x + ") " + y))));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, body.map(b -> "root ::= x\nx ::= " + b)),
                net.jqwik.api.Tuple.of(1, Arbitraries.of("root ::= x\nx ::= x x | \"a\"",
                        "root ::= x\nx ::= x x x | x x | \"a\" | \"b\"", "root ::= x\nx ::= (x | \"a\")+ | \"a\"",
                        "root ::= (" + "y ".repeat(200) + "){0,1000}\ny ::= \"a\"",
                        "root ::= ((\"a\"{1000}){1000})", "root ::= \"a", "root ::= (((((\"a\")))))")));
    }

    /**
     * {@code atom} at depth 0; above it, what {@code level} builds on the arbitrary one level down, made lazily (an
     * eager tree this deep takes jqwik forever to hash).
     */
    private static <T> Arbitrary<T> nested(int depth, Arbitrary<T> atom, Function<Arbitrary<T>, Arbitrary<T>> level) {
        return depth == 0 ? atom : level.apply(Arbitraries.lazy(() -> nested(depth - 1, atom, level)));
    }
}
