package dev.crucible.runtime.structured;

import static dev.crucible.runtime.structured.GrammarTest.matches;
import static dev.crucible.runtime.structured.GrammarTest.viable;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.testsupport.constraint.Arithmetic;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Generated strings against grammars whose languages have independent recognisers: an arithmetic grammar (a
 * recursive-descent recogniser written here), balanced brackets (a depth counter, which also decides viable
 * prefixes) and a regular grammar (the same language as a {@code java.util.regex} pattern).
 */
class GrammarPropertiesTest {

    private static final ByteGrammar ARITHMETIC = ByteGrammar.compile(GrammarTest.ARITHMETIC);
    private static final ByteGrammar BRACKETS = ByteGrammar.compile("root ::= item*\nitem ::= \"(\" item* \")\" | [a-z]");
    private static final ByteGrammar REGULAR = ByteGrammar.compile("""
            root ::= part+
            part ::= [a-c] "x"? | "(" digits ")"
            digits ::= [0-9]*
            """);
    private static final Pattern REGULAR_PATTERN = Pattern.compile("([a-c]x?|\\([0-9]*\\))+");

    @Provide
    Arbitrary<String> expressions() {
        return expression(4);
    }

    private static Arbitrary<String> expression(int depth) {
        Arbitrary<String> number = Arbitraries.strings().withChars("0123456789").ofMinLength(1).ofMaxLength(3);
        if (depth == 0) {
            return number;
        }
        Arbitrary<String> factor = Arbitraries.oneOf(number, expression(depth - 1).map(e -> "(" + e + ")"));
        return Arbitraries.oneOf(factor, net.jqwik.api.Combinators.combine(factor, Arbitraries.of("+", "-", "*", "/"),
                Arbitraries.lazy(() -> expression(depth - 1))).as((a, op, b) -> a + op + b));
    }

    @Property(tries = 300)
    void everyGeneratedExpressionParses(@ForAll("expressions") String expression) {
        assertTrue(matches(ARITHMETIC, expression), expression);
    }

    @Property(tries = 500)
    void mutatedExpressionsParseExactlyWhenTheRecogniserAccepts(@ForAll("expressions") String expression,
            @ForAll @IntRange(max = 40) int at, @ForAll @IntRange(max = 2) int edit,
            @ForAll("arithmeticChars") char c) {
        String mutated = mutate(expression, at, edit, c);
        assertEquals(Arithmetic.FULL.accepts(mutated), matches(ARITHMETIC, mutated), mutated);
    }

    @Provide
    Arbitrary<Character> arithmeticChars() {
        return Arbitraries.of('0', '7', '+', '-', '*', '/', '(', ')', 'a', ' ');
    }

    private static String mutate(String s, int at, int edit, char c) {
        int i = Math.min(at, s.length());
        return switch (edit) {
            case 0 -> s.substring(0, i) + c + s.substring(i);
            case 1 -> i < s.length() ? s.substring(0, i) + s.substring(i + 1) : s + c;
            default -> i < s.length() ? s.substring(0, i) + c + s.substring(i + 1) : c + s;
        };
    }

    @Property(tries = 1000)
    void bracketsMatchAndStayViableExactlyAsTheDepthCounterSays(
            @ForAll("bracketText") String text) {
        int depth = 0;
        boolean neverNegative = true;
        for (char ch : text.toCharArray()) {
            depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
            neverNegative &= depth >= 0;
        }
        boolean letters = text.chars().allMatch(ch -> ch == '(' || ch == ')' || ch >= 'a' && ch <= 'z');
        assertEquals(letters && neverNegative, viable(BRACKETS, text), text);
        assertEquals(letters && neverNegative && depth == 0, matches(BRACKETS, text), text);
    }

    @Provide
    Arbitrary<String> bracketText() {
        return Arbitraries.strings().withChars("(((()))ab-").ofMaxLength(16);
    }

    @Property(tries = 1000)
    void aRegularGrammarMatchesAsTheEquivalentRegex(@ForAll("regularText") String text) {
        assertEquals(REGULAR_PATTERN.matcher(text).matches(), matches(REGULAR, text), text);
    }

    @Provide
    Arbitrary<String> regularText() {
        return Arbitraries.strings().withChars("abcx()09d").ofMaxLength(12);
    }

    /** Any text is a grammar or a refusal with a message, never another failure (which would be a 500). */
    @Property(tries = 3000)
    void arbitraryTextCompilesOrIsRefusedWithAMessage(@ForAll("grammarish") String source) {
        try {
            ByteGrammar g = ByteGrammar.compile(source);
            viable(g, "ab(1)");
        } catch (InvalidConstraintException e) {
            assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), source);
        }
    }

    @Provide
    Arbitrary<String> grammarish() {
        Arbitrary<String> pieces = Arbitraries.of("root", " ::= ", "x", " x ", "::=", "\"a\"", "\"", "'b'", "[a-z]",
                "[^", "]", "(", ")", "|", "*", "+", "?", "{2}", "{1,3}", "{2,}", "{3,1}", "{", "}", ".", "\n", "#c\n",
                "\\", "\\x4", "\\u00e9", "-", "é", " ", "\n x ::= ", "root ::= ", "(=", "{99999}");
        return pieces.list().ofMaxSize(14).map(l -> String.join("", l));
    }

}
