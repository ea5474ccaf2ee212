package dev.crucible.kernel.refusal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ExcerptTest {

    @Test
    void quotesShortInputWhole() {
        assertEquals("'a{2}'", Excerpt.of("a{2}"));
    }

    @Test
    void escapesControlCharactersAndQuotes() {
        assertEquals("'a\\nb\\r\\tc\\u001b[31m\\'d\\\\'", Excerpt.of("a\nb\r\tc\u001b[31m'd\\"));
    }

    @Test
    void cutsLongInputAndSaysHowLongItWas() {
        String quoted = Excerpt.of("x".repeat(200_000));
        assertTrue(quoted.startsWith("'" + "x".repeat(Excerpt.MAX_CHARS) + "'"), quoted);
        assertTrue(quoted.endsWith("… (200000 characters)"), quoted);
        assertTrue(quoted.length() < 100, quoted);
    }

    @Test
    void neverCutsASurrogatePairInHalf() {
        String input = "x".repeat(Excerpt.MAX_CHARS - 1) + "😀" + "tail";
        assertEquals("'" + "x".repeat(Excerpt.MAX_CHARS - 1) + "'… (" + input.length() + " characters)",
                Excerpt.of(input));
    }

    @Test
    void escapesALoneSurrogate() {
        assertEquals("'a\\ud800b'", Excerpt.of("a\ud800b"));
    }

    @Test
    void aLogLineEscapesWhatCouldStartALineOfItsOwnAndIsCut() {
        assertEquals("refused: x\\n2026-11-27 INFO forged", Excerpt.line("refused: x\n2026-11-27 INFO forged", 100));
        assertEquals("abc… (6 characters)", Excerpt.line("abcdef", 3));
        assertEquals("it's a \\ path", Excerpt.line("it's a \\ path", 100));
    }

    @Test
    void keepsSurrogatePairsAndEscapesLoneSurrogates() {
        assertEquals("'a\ud83d\ude00b'", Excerpt.of("a\ud83d\ude00b"));
        assertEquals("'\\ud83d'", Excerpt.of("\ud83d"));
        assertEquals("'\\ude00'", Excerpt.of("\ude00"));
        assertEquals("'\\ude00\ud83d\ude00'", Excerpt.of("\ude00\ud83d\ude00"));
        assertEquals("'\ud83d\ude00\\ude00'", Excerpt.of("\ud83d\ude00\ude00"));
        assertEquals("'x\\ud83dy'", Excerpt.of("x\ud83dy"));
    }

    @Test
    void neverCutsASurrogatePairInTwo() {
        assertEquals("a… (4 characters)", Excerpt.line("a\ud83d\ude00b", 2));
        assertEquals("a\ud83d\ude00… (4 characters)", Excerpt.line("a\ud83d\ude00b", 3));
        assertEquals("… (3 characters)", Excerpt.line("\ud83d\ude00b", 1));
        assertEquals("ab", Excerpt.line("ab", 2));
    }
}
