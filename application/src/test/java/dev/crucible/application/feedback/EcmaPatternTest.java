package dev.crucible.application.feedback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Verdicts are ECMA-262's ({@code new RegExp(p, "u").test(text)}), worked out by hand from the specification. */
class EcmaPatternTest {

    private static boolean test(String pattern, String text) {
        return EcmaPattern.compile(pattern, 1_000).find(text);
    }

    private static String refusal(String pattern) {
        return assertThrows(EcmaPattern.Unsupported.class, () -> EcmaPattern.compile(pattern, 1_000)).getMessage();
    }

    /** Pattern, text, and whether ECMA's {@code test} finds the pattern in the text. */
    static Stream<Arguments> verdicts() {
        return Stream.of(
                // searches unanchored unless the pattern anchors
                Arguments.of("b+", "abbc", true),
                Arguments.of("^b", "ab", false),
                Arguments.of("^a.c$", "abc", true),
                // ECMA's $ without the m flag is the end of the input only, not before a final newline
                Arguments.of("c$", "abc\n", false),
                // . is any character but an ECMA line terminator
                Arguments.of("^a.b$", "a\u00e9b", true),
                Arguments.of("^a.b$", "a\nb", false),
                Arguments.of("^a.b$", "a\rb", false),
                Arguments.of("^a.b$", "a\u2028b", false),
                Arguments.of("^a.b$", "a😀b", true),
                Arguments.of("^a[^]b$", "a\nb", true),
                Arguments.of("a[]b", "ab", false),
                // \s is ECMA's white space
                Arguments.of("^a\\sb$", "a\u00a0b", true),
                Arguments.of("^a\\sb$", "a\u000bb", true),
                Arguments.of("^a\\sb$", "a\ufeffb", true),
                Arguments.of("^a[\\s]b$", "a\u3000b", true),
                Arguments.of("^a\\Sb$", "a\u00a0b", false),
                Arguments.of("^a\\Sb$", "axb", true),
                Arguments.of("^[\\S\\s]+$", "any\nthing", true),
                // escapes read as ECMA reads them
                Arguments.of("^\\u0041\\u{1F600}$", "A😀", true),
                Arguments.of("^\\x41\\cJ$", "A\n", true),
                Arguments.of("^[\\b]$", "\b", true),
                Arguments.of("\\bword\\b", "a word here", true),
                Arguments.of("^\\d{3}-\\w+\\/\\.$", "123-ab_c/.", true),
                Arguments.of("^\\p{Lu}", "Émile", true),
                Arguments.of("^(?<year>\\d{4})-(?:\\d\\d)$", "2024-05", true));
    }

    @ParameterizedTest(name = "/{0}/u.test({1}) is {2}")
    @MethodSource("verdicts")
    void testGivesEcmasVerdict(String pattern, String text, boolean found) {
        assertEquals(found, test(pattern, text));
    }

    @Test
    void theBacktrackingBombIsLinear() {
        long started = System.nanoTime();
        assertFalse(test("^a*a*a*a*b", "a".repeat(100_000)));
        assertFalse(test("^(a+)+$", "a".repeat(10_000) + "!"));
        assertTrue((System.nanoTime() - started) / 1_000_000 < 5_000);
    }

    @Test
    void whatALinearMatcherCannotRunIsRefusedSayingWhy() {
        assertTrue(refusal("(a)\\1").contains("backreference"));
        assertTrue(refusal("(?<x>a)\\k<x>").contains("backreference"));
        assertTrue(refusal("a(?=b)").contains("lookaround"));
        assertTrue(refusal("(?<!a)b").contains("lookaround"));
        assertTrue(refusal("(?i)a").contains("ECMA-262"));
        assertTrue(refusal("\\q").contains("ECMA-262"));
        assertTrue(refusal("(").contains("not a regular expression this server can run"));
        assertTrue(refusal("a{2,1}").contains("not a regular expression this server can run"));
    }

    @Test
    void sizeCountsRepeatsAfterExpansionSoNestedCountsMultiply() {
        assertEquals(1, EcmaPattern.compile("a", 1_000).size());
        assertTrue(EcmaPattern.compile("[a-z]{1,500}", 1_000).size() >= 500);
        String tooLarge = refusal("(a{1000}){200}");
        assertTrue(tooLarge.contains("crucible.feedback.max-pattern-size"), tooLarge);
        assertTrue(refusal("((a{30}){30}){30}").contains("larger than 1000"));
        assertTrue(refusal("(.{1000}){1000}").contains("after expanding its repeats"));
        assertTrue(refusal("x{99999999999999999999}").contains("after expanding its repeats"));
        // the default admits one count at RE2/J's own limit, not a group repeated that often
        assertTrue(EcmaPattern.compile("[a-z]{1,1000}", SpecLimits.DEFAULTS.maxPatternSize()).find("abc"));
        assertThrows(EcmaPattern.Unsupported.class,
                () -> EcmaPattern.compile("(ab){1000}", SpecLimits.DEFAULTS.maxPatternSize()));
    }

    @Test
    void refusalsQuoteThePatternOnlyAsAnExcerpt() {
        String message = refusal("(?=" + "a\n".repeat(10_000) + ")");
        assertTrue(message.length() < 300, message);
        assertFalse(message.contains("\n"), message);
    }
}
