package dev.crucible.runtime.structured;

import static dev.crucible.testsupport.constraint.HostileSchemas.nestedArrays;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static dev.crucible.testsupport.tokenizer.ByteTokenizer.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.testsupport.tokenizer.ByteTokenizer;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * The budgets a tenant's constraint compiles and parses under: expansions past {@code max-states} are refused while
 * they are still small, grammars past {@code max-grammar-symbols} at compile, ambiguous parses at
 * {@code max-parse-work} a token; every refusal names the setting and quotes the input only as a short excerpt.
 */
class ConstraintBudgetsTest {

    private static final String STATES = ConstraintBudgets.MAX_AUTOMATON_SIZE_SETTING;
    private final OutputConstraints compiler = new OutputConstraints(4);

    @Test
    void nestedRegexCountsAreRefusedByTheirProductNamingTheSetting() {
        for (String regex : List.of("(a{1000}){200}", "(.{1000}){1000}", "((a{10}){10}){1000}", "(a{1000}){1000,}")) {
            String message = assertRefused(compiler.regex("structured_outputs", regex), Refusal.Reason.INVALID,
                    "structured_outputs");
            assertTrue(message.contains(STATES), message);
        }
        assertTrue(value(compiler.regex("structured_outputs", "a{1000}b{1000}")).dfa().size() > 2000);
    }

    /**
     * A part that may be empty passes the joins before it on, so copies of it join each copy to every later one:
     * {@code (.*){875}} built 380,000 transitions (2-4 s of sorting) before its size was refused. Found by
     * {@link HostileConstraintPropertiesTest} in CI; now refused before anything is copied. The work is counted, not
     * timed: the bytes this thread allocates for a refusal (at most about 1 MB, the 3,500-character pattern's parse)
     * stay below 4 MB, less than the transition array of that automaton alone (380,000 times three ints).
     */
    @Test
    void copiesOfAPartThatMayBeEmptyAreRefusedByTheJoinsTheyChain() {
        String written = "(.*)".repeat(875);
        ThreadMXBean thread = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (String regex : List.of("(.*){875}", "((|(.|\\d)*)*){875}", "(a*){875}", written)) {
            long before = thread.getCurrentThreadAllocatedBytes();
            String message = assertRefused(compiler.regex("structured_outputs", regex), Refusal.Reason.INVALID,
                    "structured_outputs");
            long allocated = thread.getCurrentThreadAllocatedBytes() - before;
            assertTrue(message.contains(STATES), message);
            assertTrue(allocated < 4_000_000, regex.length() + " characters allocated " + allocated + " bytes");
        }
        assertTrue(value(compiler.regex("structured_outputs", "(a*b?){50}c")).dfa().size() > 0);
    }

    /**
     * Many compositions each under the size bound add up: a recursive schema of arrays and objects (found by
     * {@link HostileConstraintPropertiesTest} in CI) took 2.5 s of CPU, every automaton it built under the bound. The
     * compile's total counts too, and refuses this one (0.7 s here, against 2.5 s of CPU before).
     */
    @Test
    void aSchemaWhoseCompositionsAddUpIsRefusedByTheCompilesTotal() throws Exception {
        Object schema = new com.fasterxml.jackson.databind.ObjectMapper().readValue(
                "{\"items\":{\"$ref\":\"#/$defs/d\"},\"minItems\":3,\"type\":\"array\",\"$defs\":{\"d\":{\"items\":{\"properties\":{\"x\":{\"items\":{\"items\":{\"items\":{\"anyOf\":[{\"items\":{\"items\":{\"type\":\"integer\"},\"type\":\"array\"},\"type\":\"array\"},{\"properties\":{\"x\":{\"items\":{\"enum\":[1,\"a\",true]},\"type\":\"array\"},\"y\":{\"items\":{\"$ref\":\"#/$defs/d\"},\"minItems\":3,\"type\":\"array\",\"$defs\":{\"d\":{\"items\":{\"items\":{\"items\":{\"enum\":[1,\"a\",true]},\"type\":\"array\"},\"type\":\"array\",\"maxItems\":280},\"type\":\"array\",\"maxItems\":233}}}},\"type\":\"object\"}]},\"type\":\"array\"},\"type\":\"array\"},\"type\":\"array\"},\"y\":true},\"type\":\"object\"},\"type\":\"array\"}}}", Object.class);
        String message = assertRefused(compiler.jsonSchema("response_format", schema, OutputConstraints.ANY_WHITESPACE,
                false), Refusal.Reason.INVALID, "response_format");
        assertTrue(message.contains("in all") && message.contains(STATES), message);
    }

    @Test
    void aLongLiteralRegexIsBoundedByItsLengthToo() {
        String message = assertRefused(compiler.regex("structured_outputs", "ab".repeat(80_000)),
                Refusal.Reason.INVALID, "structured_outputs");
        assertTrue(message.contains(STATES), message);
    }

    @Test
    void arraysNestedFifteenDeepAreRefusedNamingTheFieldAndTheSetting() {
        String message = assertRefused(compiler.jsonSchema("response_format", nestedArrays(15),
                OutputConstraints.ANY_WHITESPACE, false), Refusal.Reason.INVALID, "response_format");
        assertTrue(message.contains(STATES), message);
        assertTrue(value(compiler.jsonSchema("response_format", nestedArrays(6), OutputConstraints.ANY_WHITESPACE,
                false)).dfa().matches(utf8("[[[[[[1]]]]]]")));
    }

    @Test
    void multipliedMaxItemsAndUnionsOfDeepBranchesAreRefused() {
        Object schema = Map.of("type", "integer");
        for (int i = 0; i < 3; i++) {
            schema = Map.of("type", "array", "items", schema, "maxItems", 1000);
        }
        assertTrue(assertRefused(compiler.jsonSchema("structured_outputs", schema, "", false),
                Refusal.Reason.INVALID, "structured_outputs").contains(STATES));
        List<Object> branches = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            branches.add(nestedArrays(9));
        }
        assertTrue(assertRefused(compiler.jsonSchema("structured_outputs", Map.of("anyOf", branches), "", false),
                Refusal.Reason.INVALID, "structured_outputs").contains(STATES));
    }

    @Test
    void aSmallerBudgetRefusesWhatTheDefaultAccepts() {
        OutputConstraints small = new OutputConstraints(4, new ConstraintBudgets(1_000, 100_000, 100_000));
        assertTrue(value(compiler.jsonObject("response_format", OutputConstraints.ANY_WHITESPACE)).dfa().size() > 0);
        assertTrue(assertRefused(small.jsonObject("response_format", OutputConstraints.ANY_WHITESPACE),
                Refusal.Reason.INVALID, "response_format").contains(STATES));
        assertTrue(assertRefused(small.regex("structured_outputs", "a{1000}b"), Refusal.Reason.INVALID,
                "structured_outputs").contains(STATES));
    }

    @Test
    void aGrammarThatUnrollsPastTheSymbolBoundIsRefused() {
        String grammar = "root ::= (" + "x ".repeat(200) + "){0,1000}\nx ::= \"a\"";
        String message = assertRefused(compiler.grammar("structured_outputs", grammar), Refusal.Reason.INVALID,
                "structured_outputs");
        assertTrue(message.contains(ConstraintBudgets.MAX_GRAMMAR_SYMBOLS_SETTING), message);
        String regular = "root ::= (\"a\"{1000}){1000}";
        assertTrue(assertRefused(compiler.grammar("structured_outputs", regular), Refusal.Reason.INVALID,
                "structured_outputs").contains(STATES));
        assertTrue(assertRefused(compiler.grammar("structured_outputs", "root ::= (x x x x){300}\nx ::= \"a\""),
                Refusal.Reason.INVALID, "structured_outputs").contains("parts"));
    }

    private static TokenVocabulary aVocabulary() {
        List<byte[]> tokens = new ArrayList<>(List.of(utf8("<eos>"), utf8("a"), utf8("aa"), utf8("aaaa"),
                utf8("b")));
        return new TokenVocabulary(new ByteTokenizer(tokens, Set.of(0)));
    }

    @Test
    void anAmbiguousGrammarEndsWithARefusalAtItsParseBudgetWhileAnUnambiguousOneGoesOn() {
        OutputConstraints bounded = new OutputConstraints(4, new ConstraintBudgets(40_000, 100_000, 20_000));
        TokenVocabulary vocabulary = aVocabulary();
        ConstraintCursor ambiguous = new ConstraintCursor(new TokenMasks(value(bounded.grammar("structured_outputs",
                "root ::= x\nx ::= x x | \"a\"")), vocabulary), Set.of(0), 0);
        RefusalException refused = assertThrows(RefusalException.class, () -> {
            for (int i = 0; i < 1_000; i++) {
                assertTrue(ambiguous.allowed().get(3));
                assertTrue(ambiguous.advance(3));
            }
        });
        assertEquals("structured_outputs", refused.refusal().param());
        assertTrue(refused.getMessage().contains(ConstraintBudgets.MAX_PARSE_WORK_SETTING), refused.getMessage());
        ConstraintCursor plain = new ConstraintCursor(new TokenMasks(value(bounded.grammar("structured_outputs",
                "root ::= x\nx ::= x \"a\" | \"a\"")), vocabulary), Set.of(0), 0);
        for (int i = 0; i < 1_000; i++) {
            assertTrue(plain.allowed().get(3));
            assertTrue(plain.advance(3));
        }
    }

    @Test
    void aGrammarMaskComputedOnAWorkerEqualsTheOneComputedInPlace() throws Exception {
        TokenVocabulary vocabulary = aVocabulary();
        OutputConstraint grammar = value(compiler.grammar("structured_outputs", "root ::= (\"a\" | \"b\" root)+"));
        ExecutorService worker = Executors.newSingleThreadExecutor();
        try {
            ConstraintCursor async = new ConstraintCursor(new TokenMasks(grammar, vocabulary), Set.of(0), 0,
                    Optional.of(worker));
            ConstraintCursor inPlace = new ConstraintCursor(new TokenMasks(grammar, vocabulary), Set.of(0), 0);
            assertTrue(async.ready());
            for (int token : new int[] {4, 1, 4, 4, 2, 1}) {
                BitSet expected = inPlace.allowed();
                assertEquals(expected, async.allowed());
                assertTrue(inPlace.advance(token));
                assertTrue(async.advance(token));
                assertTrue(async.pending().isPresent(), "the next mask is under way");
                async.pending().get().get();
                assertTrue(async.ready());
            }
        } finally {
            worker.shutdownNow();
        }
    }

    @Test
    void refusalsQuoteAHugeInputAsAShortEscapedExcerpt() {
        String huge = "[" + "a\n".repeat(100_000);
        String message = assertRefused(compiler.regex("structured_outputs", huge), Refusal.Reason.INVALID,
                "structured_outputs");
        assertTrue(message.length() < 400, message);
        assertFalse(message.contains("\n"), message);
        String name = "r".repeat(200_000);
        for (var outcome : List.of(compiler.grammar("p", "root ::= " + name),
                compiler.grammar("p", "root ::= \"a\"\n" + name + " ::= \"b\"\n" + name + " ::= \"c\""),
                compiler.grammar("p", "root ::= \"a\" \n\u0007"),
                compiler.jsonSchema("p", Map.of("type", name), "", false),
                compiler.jsonSchema("p", Map.of("$ref", "#/" + name), "", false),
                compiler.jsonSchema("p", Map.of("type", "string", "minLength", name), "", false),
                compiler.jsonSchema("p", List.of(name), "", false))) {
            String m = assertRefused(outcome, Refusal.Reason.INVALID, "p");
            assertTrue(m.length() < 400, m.length() + ": " + m.substring(0, Math.min(300, m.length())));
            assertFalse(m.contains("\n") || m.contains("\u0007"), m);
        }
    }
}
