package dev.crucible.runtime.structured;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static dev.crucible.testsupport.tokenizer.ByteTokenizer.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.testsupport.tokenizer.ByteTokenizer;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TokenMasksTest {

    private static final int EOS = 0;
    private static final int QUOTE = 1;
    private static final int YES = 2;
    private static final int N = 3;
    private static final int Y = 4;
    private static final int ES_QUOTE = 5;
    /** The two bytes of é, as two tokens, and é plus the closing quote as one. */
    private static final int E1 = 6;
    private static final int E2 = 7;
    private static final int E_ACUTE_QUOTE = 8;
    private static final int SPECIAL_TEXT = 9;
    private static final int QUOTE_YES_QUOTE = 10;

    private final ByteTokenizer tokenizer = new ByteTokenizer(List.of(utf8("<eos>"), utf8("\""), utf8("yes"),
            utf8("n"), utf8("y"), utf8("es\""), new byte[] {(byte) 0xC3}, new byte[] {(byte) 0xA9},
            new byte[] {(byte) 0xC3, (byte) 0xA9, '"'}, utf8("\"yes\""), utf8("\"yes\"")), Set.of(EOS, SPECIAL_TEXT));
    private final TokenVocabulary vocabulary = new TokenVocabulary(tokenizer);
    private final OutputConstraints compiler = new OutputConstraints(4);

    private ConstraintCursor cursor(OutputConstraint constraint) {
        return new ConstraintCursor(new TokenMasks(constraint, vocabulary), Set.of(EOS), 0);
    }

    private static Set<Integer> ids(BitSet bits) {
        return Set.copyOf(bits.stream().boxed().toList());
    }

    @Test
    void masksKeepTokensThatCrossStateBoundariesAndLeaveOutSpecialTokens() {
        ConstraintCursor c = cursor(value(compiler.regex("p", "\"(yes|né)\"")));
        // a special token is never text, even when its bytes would fit
        assertEquals(Set.of(QUOTE, QUOTE_YES_QUOTE), ids(c.allowed()));
        assertTrue(c.advance(QUOTE));
        assertEquals(Set.of(YES, N, Y), ids(c.allowed()));
        assertTrue(c.advance(N));
        // é may come whole with the quote, or split over two tokens
        assertEquals(Set.of(E1, E_ACUTE_QUOTE), ids(c.allowed()));
        assertTrue(c.advance(E1));
        assertEquals(Set.of(E2), ids(c.allowed()));
        assertTrue(c.advance(E2));
        assertEquals(Set.of(QUOTE), ids(c.allowed()));
        assertTrue(c.advance(QUOTE));
        assertTrue(c.complete());
        assertEquals(Set.of(EOS), ids(c.allowed()), "only the end may follow a complete match");
        assertTrue(c.advance(EOS));
    }

    @Test
    void endOfSequenceIsAllowedOnlyWhereTheMatchIsWholeAndMoreMayFollow() {
        ConstraintCursor c = cursor(value(compiler.regex("p", "(yes)+")));
        assertFalse(c.allowed().get(EOS));
        assertTrue(c.advance(YES));
        assertEquals(Set.of(EOS, YES, Y), ids(c.allowed()));
        assertFalse(c.advance(N), "a token outside the mask kills the cursor");
    }

    @Test
    void withoutAnEndTokenACompleteConstraintAllowsNothing() {
        OutputConstraint constraint = value(compiler.choice("p", List.of("n")));
        ConstraintCursor c = new ConstraintCursor(new TokenMasks(constraint, vocabulary), Set.of(), 0);
        assertTrue(c.advance(N));
        assertTrue(c.allowed().isEmpty());
        ConstraintCursor early = new ConstraintCursor(new TokenMasks(constraint, vocabulary), Set.of(EOS), 2);
        assertTrue(early.advance(N));
        assertTrue(early.allowed().isEmpty(), "min_tokens keeps the end hidden");
    }

    @Test
    void masksAreComputedOncePerState() {
        TokenMasks masks = new TokenMasks(value(compiler.regex("p", "\"[a-z]*\"")), vocabulary);
        BitSet first = masks.allowed(0);
        assertTrue(first == masks.allowed(0), "the cached mask is returned");
        assertEquals(IntStream.of(QUOTE, QUOTE_YES_QUOTE).boxed().collect(java.util.stream.Collectors.toSet()),
                ids(first));
    }
}
