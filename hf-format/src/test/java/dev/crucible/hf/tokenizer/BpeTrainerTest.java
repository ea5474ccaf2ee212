package dev.crucible.hf.tokenizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class BpeTrainerTest {

    @Test
    void startsWithTheByteTokensInByteOrder() {
        BpeModel m = BpeTrainer.train("hello hello", 300, TokenizerStyle.QWEN2);
        for (int b = 0; b < 256; b++) {
            assertEquals(String.valueOf(ByteLevel.charOf(b)), m.vocab().get(b));
        }
    }

    @Test
    void mergesTheMostFrequentPairFirstAndBreaksTiesBySmallestIds() {
        // Words: "ab", " ab", " cd" twice. Pairs (a,b), (Ġ,c) and (c,d) occur twice; Ġ (byte 32) has the smallest
        // id. Then (a,b) and (Ġc,d) tie at two; a (97) beats Ġc (256).
        BpeModel m = BpeTrainer.train("ab ab cd cd", 260, TokenizerStyle.QWEN2);
        assertEquals(List.of(new Merge("Ġ", "c"), new Merge("a", "b"), new Merge("Ġc", "d")), m.merges());
        assertEquals(List.of("Ġc", "ab", "Ġcd"), m.vocab().subList(256, 259));
    }

    @Test
    void stopsAtTheVocabularySizeOrWhenNoPairRepeats() {
        assertEquals(257, BpeTrainer.train("aaaa aaaa aaaa", 257, TokenizerStyle.QWEN2).vocab().size());
        BpeModel m = BpeTrainer.train("xyz", 1000, TokenizerStyle.QWEN2);
        assertEquals(256, m.vocab().size());
        assertThrows(IllegalArgumentException.class, () -> BpeTrainer.train("x", 100, TokenizerStyle.QWEN2));
    }

    @Test
    void givesTheSameModelEveryTime() {
        String corpus = "the cat sat on the mat; the dog sat on the log. 12345 ünïcödé 你好 😀";
        assertEquals(BpeTrainer.train(corpus, 400, TokenizerStyle.LLAMA3),
                BpeTrainer.train(corpus, 400, TokenizerStyle.LLAMA3));
    }

    @Test
    void aMergeReachingAnExistingTokenReusesIt() {
        // "abc" is reached as (ab, c) and, in "xbc ..." contexts, could be reached as (a, bc): the vocab has it once.
        BpeModel m = BpeTrainer.train("abc abc abc bcx bcx bcx abcd abcd", 300, TokenizerStyle.QWEN2);
        assertEquals(m.vocab().size(), m.vocab().stream().distinct().count());
    }
}
