package dev.crucible.runtime.structured;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static dev.crucible.testsupport.tokenizer.ByteTokenizer.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.testsupport.tokenizer.ByteTokenizer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Token masks of grammar constraints: a token is allowed exactly when its bytes keep the parse alive (checked
 * against a depth counter for balanced brackets), tokens may split a character, and end-of-sequence is allowed
 * exactly when the output is a whole match.
 */
class GrammarMasksTest {

    private static final int EOS = 0;
    private static final List<String> TOKENS = List.of("<eos>", "(", ")", "a", "((", "))", "a)", "(a", ")(", "b(",
            "))a", "x", "()", "a(b", ")))");
    private final ByteTokenizer tokenizer = new ByteTokenizer(TOKENS.stream().map(t -> utf8(t)).toList(),
            Set.of(EOS));
    private final TokenVocabulary vocabulary = new TokenVocabulary(tokenizer);
    private final OutputConstraints compiler = new OutputConstraints(4);

    private ConstraintCursor cursor(String grammar) {
        return new ConstraintCursor(new TokenMasks(value(compiler.grammar("p", grammar)), vocabulary), Set.of(EOS),
                0);
    }

    /** Depth after {@code text}, or -1 once it went below zero or met a character outside the language. */
    private static int depth(String text) {
        int depth = 0;
        for (char c : text.toCharArray()) {
            if (c != '(' && c != ')' && (c < 'a' || c > 'z')) {
                return -1;
            }
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (depth < 0) {
                return -1;
            }
        }
        return depth;
    }

    @Property(tries = 200)
    void aTokenIsAllowedExactlyWhenItKeepsTheParseAlive(@ForAll @IntRange(max = Integer.MAX_VALUE) int seed) {
        ConstraintCursor c = cursor("root ::= item*\nitem ::= \"(\" item* \")\" | [a-z]");
        java.util.Random random = new java.util.Random(seed);
        String text = "";
        for (int step = 0; step < 12; step++) {
            BitSet allowed = c.allowed();
            List<Integer> expected = new ArrayList<>();
            for (int id = 1; id < TOKENS.size(); id++) {
                if (depth(text + TOKENS.get(id)) >= 0) {
                    expected.add(id);
                }
            }
            if (depth(text) == 0) {
                expected.addFirst(EOS);
            }
            assertEquals(expected, allowed.stream().boxed().toList(), "after '" + text + "'");
            assertEquals(depth(text) == 0, c.complete());
            List<Integer> choices = expected.stream().filter(id -> id != EOS).toList();
            int token = choices.get(random.nextInt(choices.size()));
            assertTrue(c.advance(token));
            text += TOKENS.get(token);
        }
    }

    /**
     * Multi-byte tokens over a JSON-ish grammar, whose strings and numbers are terminals under way across tokens (the
     * cached part of a mask): at every step of a random walk the mask is exactly the tokens the parse can read.
     */
    @Property(tries = 60)
    void cachedMasksEqualReadingEveryTokenAgainstTheParse(@ForAll @IntRange(max = Integer.MAX_VALUE) int seed) {
        java.util.Random random = new java.util.Random(seed);
        String alphabet = "{}[]\":, ab1-";
        List<byte[]> tokens = new ArrayList<>(List.of(utf8("<eos>")));
        for (char c : alphabet.toCharArray()) {
            tokens.add(utf8(String.valueOf(c)));
        }
        while (tokens.size() < 400) {
            StringBuilder t = new StringBuilder();
            for (int n = 1 + random.nextInt(6); n > 0; n--) {
                t.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            tokens.add(utf8(t.toString()));
        }
        TokenVocabulary words = new TokenVocabulary(new ByteTokenizer(tokens, Set.of(EOS)));
        OutputConstraint json = value(compiler.grammar("p", """
                root ::= value
                value ::= "{" ws ( pair ( "," ws pair )* )? "}" | "[" ws ( value ( "," ws value )* )? "]" | str | num
                pair ::= str ws ":" ws value
                str ::= "\"" [ab ]* "\""
                num ::= "-"? [1-9] [0-9]* | "-"? "1" "1"*
                ws ::= " "*
                """));
        TokenMasks masks = new TokenMasks(json, words);
        ConstraintCursor c = new ConstraintCursor(masks, Set.of(EOS), 0);
        EarleyChart reference = new EarleyChart((ByteGrammar) json.language());
        for (int step = 0; step < 25; step++) {
            List<Integer> expected = new ArrayList<>();
            if (reference.accepts()) {
                expected.add(EOS);
            }
            for (int id = 1; id < tokens.size(); id++) {
                if (reference.pushAll(tokens.get(id))) {
                    expected.add(id);
                    for (int i = 0; i < tokens.get(id).length; i++) {
                        reference.pop();
                    }
                }
            }
            assertEquals(expected, c.allowed().stream().boxed().toList(), "step " + step);
            List<Integer> choices = expected.stream().filter(id -> id != EOS).toList();
            if (choices.isEmpty()) {
                break;
            }
            int token = choices.get(random.nextInt(choices.size()));
            assertTrue(c.advance(token));
            assertTrue(reference.pushAll(tokens.get(token)));
        }
    }

    @Test
    void aTokenTheMaskLeftOutKillsNothing() {
        ConstraintCursor c = cursor("root ::= \"(\" \"a\" \")\"");
        assertFalse(c.advance(2));
        assertTrue(c.advance(1));
        assertTrue(c.advance(6));
        assertTrue(c.complete());
        assertEquals(List.of(EOS), c.allowed().stream().boxed().toList());
    }

    @Test
    void charactersMaySplitAcrossTokens() {
        ByteTokenizer split = new ByteTokenizer(List.of(utf8("<eos>"), utf8("\""), utf8("n"), new byte[] {(byte) 0xC3},
                new byte[] {(byte) 0xA9}, new byte[] {(byte) 0xC3, (byte) 0xA9, '"'}), Set.of(EOS));
        ConstraintCursor c = new ConstraintCursor(new TokenMasks(value(compiler.grammar("p",
                "root ::= \"\\\"\" name \"\\\"\"\nname ::= \"n\" [\\u00e0-\\u00ff]")), new TokenVocabulary(split)), Set.of(EOS), 0);
        assertTrue(c.advance(1));
        assertTrue(c.advance(2));
        assertEquals(List.of(3, 5), c.allowed().stream().boxed().toList());
        assertTrue(c.advance(3));
        assertEquals(List.of(4), c.allowed().stream().boxed().toList());
        assertTrue(c.advance(4));
        assertTrue(c.advance(1));
        assertEquals(List.of(EOS), c.allowed().stream().boxed().toList());
    }

    @Test
    void endIsHeldBackUntilMinTokens() {
        ConstraintCursor c = new ConstraintCursor(new TokenMasks(value(compiler.grammar("p", "root ::= \"a\"*")),
                vocabulary), Set.of(EOS), 2);
        assertFalse(c.allowed().get(EOS));
        assertTrue(c.advance(3));
        assertTrue(c.advance(3));
        assertTrue(c.allowed().get(EOS));
    }
}
