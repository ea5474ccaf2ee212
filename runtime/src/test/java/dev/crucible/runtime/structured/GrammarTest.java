package dev.crucible.runtime.structured;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.refusal;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Refusal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Grammars whose languages are known, parsed and recognised byte by byte; bad grammars refused by rule. */
class GrammarTest {

    static final String ARITHMETIC = """
            # left-recursive on purpose
            root ::= expr
            expr ::= expr ("+" | "-") term | term
            term ::= term ("*" | "/") factor | factor
            factor ::= number | "(" expr ")"
            number ::= [0-9]+
            """;

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

    @Test
    void acceptsExactlyTheAlternativesOfAChoice() {
        ByteGrammar g = ByteGrammar.compile("root ::= \"yes\" | \"no\"");
        assertTrue(matches(g, "yes"));
        assertTrue(matches(g, "no"));
        assertFalse(matches(g, "ye"));
        assertTrue(viable(g, "ye"));
        assertFalse(viable(g, "yess"));
        assertFalse(matches(g, ""));
        assertFalse(viable(g, "x"));
    }

    @Test
    void parsesLeftRecursiveArithmetic() {
        ByteGrammar g = ByteGrammar.compile(ARITHMETIC);
        for (String ok : new String[] {"1", "12+3", "(1+2)*3", "((7))", "1-2-3*4/5", "(1*(2+(3)))"}) {
            assertTrue(matches(g, ok), ok);
        }
        for (String bad : new String[] {"", "+1", "1+", "(1", "1)", "()", "1**2", "a"}) {
            assertFalse(matches(g, bad), bad);
        }
        assertTrue(viable(g, "(1+"));
        assertFalse(viable(g, "(1+)"));
    }

    @Test
    void readsClassesEscapesRepetitionAndComments() {
        ByteGrammar g = ByteGrammar.compile("""
                root ::= "[" ( item ( "," item )* )? "]"   # a JSON-ish list
                item ::= str | [0-9]{1,3}
                str ::= "\\"" [^"\\\\\\n]* "\\""
                """);
        assertTrue(matches(g, "[]"));
        assertTrue(matches(g, "[1,22,333]"));
        assertTrue(matches(g, "[\"a b\",\"é\",7]"));
        assertFalse(matches(g, "[1234]"));
        assertFalse(matches(g, "[1,]"));
        assertFalse(matches(g, "[\"a\nb\"]"));
        assertFalse(viable(g, "[\"a\\"));
    }

    @Test
    void readsBoundedAndOpenRepetitionOfRules() {
        ByteGrammar g = ByteGrammar.compile("root ::= ab{2,3} c{1,}\nab ::= \"a\" \"b\"\nc ::= \"c\" | \"(\" root \")\"");
        assertTrue(matches(g, "ababc"));
        assertTrue(matches(g, "abababccc"));
        assertFalse(matches(g, "abc"));
        assertFalse(matches(g, "ababababc"));
        assertTrue(matches(g, "abab(ababc)c"));
        ByteGrammar exact = ByteGrammar.compile("root ::= x{3}\nx ::= \"x\" | \"(\" root \")\"");
        assertTrue(matches(exact, "xxx"));
        assertFalse(matches(exact, "xx"));
        assertFalse(matches(exact, "xxxx"));
    }

    @Test
    void readsUnicodeInLiteralsAndClasses() {
        ByteGrammar g = ByteGrammar.compile("root ::= \"\\u00e9t\\xe9\" [α-ω]+ .");
        assertTrue(matches(g, "étéαβγ!"));
        assertTrue(matches(g, "étéω😀"));
        assertFalse(matches(g, "étéa!"));
    }

    @Test
    void nullableRulesAndEmptyAlternativesParse() {
        ByteGrammar g = ByteGrammar.compile("root ::= a b a\na ::= \"\" | \"x\"\nb ::= a a \"y\" a");
        assertTrue(matches(g, "y"));
        assertTrue(matches(g, "xxyxx"));
        assertTrue(matches(g, "yx"));
        assertFalse(matches(g, "xxxyxxxx"));
    }

    @Test
    void refusesAGrammarWithoutRoot() {
        assertTrue(refusalOf("start ::= \"a\"").contains("'root'"));
    }

    @Test
    void refusesAnUndefinedRuleNamingItAndItsUser() {
        String message = refusalOf("root ::= \"a\" item\nitem ::= \"b\" missing");
        assertTrue(message.contains("rule 'missing' is not defined"), message);
        assertTrue(message.contains("rule 'item' at line 2, column 14"), message);
    }

    @Test
    void refusesSyntaxErrorsNamingTheRuleAndPosition() {
        String unterminated = refusalOf("root ::= item\nitem ::= \"abc");
        assertTrue(unterminated.contains("unterminated string literal in rule 'item' at line 2"), unterminated);
        String paren = refusalOf("root ::= (\"a\" | \"b\"");
        assertTrue(paren.contains("expected ')' in rule 'root'"), paren);
        String noArrow = refusalOf("root = \"a\"");
        assertTrue(noArrow.contains("expected '::=' after the rule name in rule 'root' at line 1, column 6"), noArrow);
        String stray = refusalOf("root ::= \"a\" * \"b\"");
        assertTrue(stray.contains("unexpected character '*' in rule 'root'"), stray);
        String range = refusalOf("root ::= [z-a]");
        assertTrue(range.contains("out of order in rule 'root'"), range);
        String bounds = refusalOf("root ::= \"a\"{3,1}");
        assertTrue(bounds.contains("maximum below its minimum in rule 'root'"), bounds);
    }

    @Test
    void refusesDeepNestingInsteadOfRunningOutOfStack() {
        String groups = refusalOf("root ::= " + "(".repeat(5000) + "\"a\"" + ")".repeat(5000));
        assertTrue(groups.contains("groups nested more than 100 deep in rule 'root'"), groups);
        String stars = refusalOf("root ::= \"a\"" + "*".repeat(5000));
        assertTrue(stars.contains("repetitions stacked"), stars);
    }

    @Test
    void refusesADuplicateRule() {
        assertTrue(refusalOf("root ::= \"a\"\nroot ::= \"b\"").contains("rule 'root' is defined more than once"));
    }

    @Test
    void refusesARuleThatNeverEnds() {
        String message = refusalOf("root ::= \"a\" | loop\nloop ::= \"b\" loop");
        assertTrue(message.contains("rule 'loop' never derives a finite string"), message);
    }

    @Test
    void refusesAnEmptyCharacterClassNamingTheRule() {
        String message = refusalOf("root ::= x\nx ::= [^\\x00-\\U0010FFFF]");
        assertTrue(message.contains("'x'"), message);
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
