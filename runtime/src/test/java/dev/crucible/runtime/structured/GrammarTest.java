package dev.crucible.runtime.structured;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.refusal;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.testsupport.constraint.Arithmetic;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Grammars whose languages are known, parsed and recognised byte by byte; bad grammars refused by rule. */
class GrammarTest {

    static final String ARITHMETIC = Arithmetic.FULL.grammar();

    static boolean matches(ByteGrammar grammar, String text) {
        EarleyChart chart = new EarleyChart(grammar);
        return chart.pushAll(text.getBytes(StandardCharsets.UTF_8)) && chart.accepts();
    }

    static boolean viable(ByteGrammar grammar, String text) {
        return new EarleyChart(grammar).pushAll(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String refusalOf(String grammar) {
        return assertThrows(InvalidConstraintException.class, () -> ByteGrammar.compile(grammar)).getMessage();
    }

    /** Asserts that {@code g} matches every one of {@code in} and none of {@code out}. */
    private static void assertLanguage(ByteGrammar g, List<String> in, List<String> out) {
        in.forEach(text -> assertTrue(matches(g, text), () -> "should match: " + text));
        out.forEach(text -> assertFalse(matches(g, text), () -> "should not match: " + text));
    }

    /** Asserts that {@code prefix} can still be continued into a match, or not. */
    private static void assertViable(ByteGrammar g, String prefix, boolean expected) {
        assertEquals(expected, viable(g, prefix), () -> "viable: " + prefix);
    }

    @Test
    void acceptsExactlyTheAlternativesOfAChoice() {
        ByteGrammar g = ByteGrammar.compile("root ::= \"yes\" | \"no\"");
        assertLanguage(g, List.of("yes", "no"), List.of("ye", "", "yess"));
        assertViable(g, "ye", true);
        assertViable(g, "yess", false);
        assertViable(g, "x", false);
    }

    @Test
    void aGrammarMayStartWithBlankLinesAndComments() {
        assertLanguage(ByteGrammar.compile("\n  # the answer\n\nroot ::= \"yes\" | \"no\""), List.of("yes", "no"),
                List.of("", "maybe"));
    }

    @Test
    void parsesLeftRecursiveArithmetic() {
        ByteGrammar g = ByteGrammar.compile(ARITHMETIC);
        assertLanguage(g, List.of("1", "12+3", "(1+2)*3", "((7))", "1-2-3*4/5", "(1*(2+(3)))"),
                List.of("", "+1", "1+", "(1", "1)", "()", "1**2", "a"));
        assertViable(g, "(1+", true);
        assertViable(g, "(1+)", false);
    }

    @Test
    void readsClassesEscapesRepetitionAndComments() {
        ByteGrammar g = ByteGrammar.compile("""
                root ::= "[" ( item ( "," item )* )? "]"   # a JSON-ish list
                item ::= str | [0-9]{1,3}
                str ::= "\\"" [^"\\\\\\n]* "\\""
                """);
        assertLanguage(g, List.of("[]", "[1,22,333]", "[\"a b\",\"é\",7]"), List.of("[1234]", "[1,]", "[\"a\nb\"]"));
        assertViable(g, "[\"a\\", false);
    }

    @Test
    void readsBoundedAndOpenRepetitionOfRules() {
        assertLanguage(ByteGrammar.compile("root ::= ab{2,3} c{1,}\nab ::= \"a\" \"b\"\nc ::= \"c\" | \"(\" root \")\""),
                List.of("ababc", "abababccc", "abab(ababc)c"), List.of("abc", "ababababc"));
        assertLanguage(ByteGrammar.compile("root ::= x{3}\nx ::= \"x\" | \"(\" root \")\""),
                List.of("xxx"), List.of("xx", "xxxx"));
    }

    @Test
    void readsUnicodeInLiteralsAndClasses() {
        assertLanguage(ByteGrammar.compile("root ::= \"\\u00e9t\\xe9\" [α-ω]+ ."),
                List.of("étéαβγ!", "étéω😀"), List.of("étéa!"));
    }

    @Test
    void nullableRulesAndEmptyAlternativesParse() {
        assertLanguage(ByteGrammar.compile("root ::= a b a\na ::= \"\" | \"x\"\nb ::= a a \"y\" a"),
                List.of("y", "xxyxx", "yx"), List.of("xxxyxxxx"));
    }

    static Stream<Arguments> refusedGrammars() {
        return Stream.of(
                Arguments.of("start ::= \"a\"", "'root'"),
                Arguments.of("root ::= \"a\" item\nitem ::= \"b\" missing", "rule 'missing' is not defined"),
                Arguments.of("root ::= \"a\" item\nitem ::= \"b\" missing", "rule 'item' at line 2, column 14"),
                Arguments.of("root ::= item\nitem ::= \"abc", "unterminated string literal in rule 'item' at line 2"),
                Arguments.of("root ::= (\"a\" | \"b\"", "expected ')' in rule 'root'"),
                Arguments.of("root = \"a\"", "expected '::=' after the rule name in rule 'root' at line 1, column 6"),
                Arguments.of("root ::= \"a\" * \"b\"", "unexpected character '*' in rule 'root'"),
                Arguments.of("root ::= [z-a]", "out of order in rule 'root'"),
                Arguments.of("root ::= \"a\"{3,1}", "maximum below its minimum in rule 'root'"),
                Arguments.of("root ::= " + "(".repeat(5000) + "\"a\"" + ")".repeat(5000),
                        "groups nested more than 100 deep in rule 'root'"),
                Arguments.of("root ::= \"a\"" + "*".repeat(5000), "repetitions stacked"),
                Arguments.of("root ::= \"a\"\nroot ::= \"b\"", "rule 'root' is defined more than once"),
                Arguments.of("root ::= \"a\" | loop\nloop ::= \"b\" loop", "rule 'loop' never derives a finite string"),
                Arguments.of("root ::= x\nx ::= [^\\x00-\\U0010FFFF]", "'x'"));
    }

    /** Bad grammars, deep nesting included (refused, never a stack overflow), are refused naming the rule. */
    @ParameterizedTest
    @MethodSource("refusedGrammars")
    void refusesABadGrammarSayingWhereAndWhy(String grammar, String expected) {
        String message = refusalOf(grammar);
        assertTrue(message.contains(expected), message);
    }

    @Test
    void compilerRefusesWithTheParamAndServesGrammarConstraints() {
        OutputConstraints compiler = new OutputConstraints(4);
        Refusal refused = refusal(compiler.grammar("structured_outputs", "root ::= item"));
        assertEquals("structured_outputs", refused.param());
        assertTrue(refused.message().startsWith("Invalid grammar: rule 'item' is not defined"), refused.message());
        OutputConstraint good = value(compiler.grammar("structured_outputs", "root ::= \"yes\" | \"no\""));
        assertInstanceOf(ByteGrammar.class, good.language());
        assertThrows(IllegalStateException.class, good::dfa);
    }
}
