package dev.crucible.runtime.structured;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.testsupport.tokenizer.ByteTokenizer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Grammar masks over a synthetic 150k-token vocabulary (random printable tokens of 1 to 12 bytes, as a real
 * BPE vocabulary's bulk): the most permissive position, inside a string where nearly every token is allowed, is the
 * worst case of the trie walk; once the string terminal's part of the mask is cached, only the tokens that close
 * the string are read against the parse.
 */
class GrammarLargeVocabularyTest {

    @Test
    void aGrammarMaskOverA150kVocabularyAllowsEveryTokenThatContinuesTheString() {
        Random random = new Random(7);
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ ,.:;\"{}[]0123456789-_";
        List<byte[]> tokens = new ArrayList<>();
        tokens.add("<eos>".getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < 256; i++) {
            tokens.add(new byte[] {(byte) i});
        }
        while (tokens.size() < 150_000) {
            StringBuilder t = new StringBuilder(random.nextBoolean() ? " " : "");
            for (int n = 1 + random.nextInt(12); n > 0; n--) {
                t.append(alphabet.charAt(random.nextInt(random.nextInt(4) == 0 ? alphabet.length() : 26)));
            }
            tokens.add(t.toString().getBytes(StandardCharsets.UTF_8));
        }
        TokenVocabulary vocabulary = new TokenVocabulary(new ByteTokenizer(tokens, Set.of(0)));
        OutputConstraint grammar = value(new OutputConstraints(2).grammar("p", """
                root ::= "{" ws pair ( "," ws pair )* ws "}"
                pair ::= string ws ":" ws value
                value ::= string | [0-9]+ | "[" ws ( value ( "," ws value )* )? ws "]" | root
                string ::= "\\"" [^"\\\\]* "\\""
                ws ::= [ ]*
                """));
        ConstraintCursor cursor = new ConstraintCursor(new TokenMasks(grammar, vocabulary), Set.of(0), 0);
        for (byte b : "{\"name\": [\"abc".getBytes(StandardCharsets.UTF_8)) {
            assertTrue(cursor.advance(1 + (b & 0xFF)));
        }
        BitSet allowed = cursor.allowed();
        BitSet again = cursor.allowed();
        assertEquals(allowed, again, "the cached part of the mask gives the same mask");
        // inside a string every token without a quote or backslash is allowed: the regex DFA for a string says which
        ByteDfa dfa = value(new OutputConstraints(2).regex("p", "\"[^\"\\\\]*")).dfa();
        int inString = dfa.step(dfa.start(), (byte) '"');
        BitSet stringOnly = vocabulary.allowed(dfa, inString);
        assertTrue(allowed.cardinality() > 100_000, "nearly every token continues a string");
        BitSet missing = (BitSet) stringOnly.clone();
        missing.andNot(allowed);
        missing.clear(0);
        assertTrue(missing.isEmpty(), "every token that stays inside the string is allowed: " + missing);
    }
}
