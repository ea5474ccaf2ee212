package dev.crucible.runtime.structured;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
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
 * Grammar mask cost over a synthetic 150k-token vocabulary (random printable tokens of 1 to 12 bytes, as a real
 * BPE vocabulary's bulk): the most permissive position, inside a string where nearly every token is allowed, is the
 * worst case of the trie walk; once the string terminal's part of the mask is cached, only the tokens that close
 * the string are read against the parse.
 */
class GrammarMaskCostTest {

    @Test
    void aGrammarMaskOverA150kVocabularyTakesMilliseconds() {
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
        long cold = System.nanoTime();
        cursor.allowed();
        System.out.printf("first grammar mask at this position: %.1f ms%n", (System.nanoTime() - cold) / 1e6);
        for (int i = 0; i < 10; i++) {
            cursor.allowed();
        }
        ByteDfa dfa = value(new OutputConstraints(2).regex("p", "\"[^\"]*\"")).dfa();
        int inString = dfa.step(dfa.start(), (byte) '"');
        for (int i = 0; i < 10; i++) {
            vocabulary.allowed(dfa, inString);
        }
        long d0 = System.nanoTime();
        for (int i = 0; i < 5; i++) {
            vocabulary.allowed(dfa, inString);
        }
        System.out.printf("dfa walk: %.1f ms%n", (System.nanoTime() - d0) / 5e6);
        long start = System.nanoTime();
        int rounds = 5;
        BitSet allowed = null;
        for (int i = 0; i < rounds; i++) {
            allowed = cursor.allowed();
        }
        double perMask = (System.nanoTime() - start) / 1e6 / rounds;
        System.out.printf("grammar mask inside a string: %d of %d tokens allowed, %.1f ms per mask%n",
                allowed.cardinality(), vocabulary.size(), perMask);
        assertTrue(allowed.cardinality() > 100_000);
        assertTrue(perMask < 200, "took " + perMask + " ms per mask");
    }
}
