package dev.crucible.kernel.refusal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ExcerptTest {

    /** Input and its excerpt: quoted whole when short; controls, quotes and lone surrogates escaped; pairs kept. */
    static Stream<Arguments> excerpts() {
        return Stream.of(
                arguments("a{2}", "'a{2}'"),
                arguments("a\nb\r\tc\u001b[31m'd\\", "'a\\nb\\r\\tc\\u001b[31m\\'d\\\\'"),
                arguments("a\ud800b", "'a\\ud800b'"),
                arguments("a\ud83d\ude00b", "'a\ud83d\ude00b'"),
                arguments("\ud83d", "'\\ud83d'"),
                arguments("\ude00", "'\\ude00'"),
                arguments("\ude00\ud83d\ude00", "'\\ude00\ud83d\ude00'"),
                arguments("\ud83d\ude00\ude00", "'\ud83d\ude00\\ude00'"),
                arguments("x\ud83dy", "'x\\ud83dy'"));
    }

    @ParameterizedTest
    @MethodSource("excerpts")
    void quotesAndEscapes(String input, String excerpt) {
        assertEquals(excerpt, Excerpt.of(input));
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

    /** A log line: what could start a line of its own escaped, backslashes and quotes as they are, cut at a pair. */
    static Stream<Arguments> lines() {
        return Stream.of(
                arguments("refused: x\n2026-11-27 INFO forged", 100, "refused: x\\n2026-11-27 INFO forged"),
                arguments("abcdef", 3, "abc… (6 characters)"),
                arguments("it's a \\ path", 100, "it's a \\ path"),
                arguments("a\ud83d\ude00b", 2, "a… (4 characters)"),
                arguments("a\ud83d\ude00b", 3, "a\ud83d\ude00… (4 characters)"),
                arguments("\ud83d\ude00b", 1, "… (3 characters)"),
                arguments("ab", 2, "ab"));
    }

    @ParameterizedTest
    @MethodSource("lines")
    void aLogLineEscapesWhatCouldStartALineOfItsOwnAndIsCut(String text, int maxChars, String line) {
        assertEquals(line, Excerpt.line(text, maxChars));
    }
}
