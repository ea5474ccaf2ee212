package dev.crucible.application.feedback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Verdicts are ECMA-262's ({@code new RegExp(p, "u").test(text)}), worked out by hand from the specification. */
class EcmaPatternTest {

    private static boolean test(String pattern, String text) {
        return EcmaPattern.compile(pattern, 1_000).find(text);
    }

    private static String refusal(String pattern) {
        return assertThrows(EcmaPattern.Unsupported.class, () -> EcmaPattern.compile(pattern, 1_000)).getMessage();
    }

    @Test
    void searchesUnanchoredUnlessThePatternAnchors() {
        assertTrue(test("b+", "abbc"));
        assertFalse(test("^b", "ab"));
        assertTrue(test("^a.c$", "abc"));
        // ECMA's $ without the m flag is the end of the input only, not before a final newline
        assertFalse(test("c$", "abc\n"));
    }

    @Test
    void theBacktrackingBombIsLinear() {
        long started = System.nanoTime();
        assertFalse(test("^a*a*a*a*b", "a".repeat(100_000)));
        assertFalse(test("^(a+)+$", "a".repeat(10_000) + "!"));
        assertTrue((System.nanoTime() - started) / 1_000_000 < 5_000);
    }

    @Test
    void dotIsAnyCharacterButAnEcmaLineTerminator() {
        assertTrue(test("^a.b$", "a\u00e9b"));
        assertFalse(test("^a.b$", "a\nb"));
        assertFalse(test("^a.b$", "a\rb"));
        assertFalse(test("^a.b$", "a\u2028b"));
        assertTrue(test("^a.b$", "a😀b"));
        assertTrue(test("^a[^]b$", "a\nb"));
        assertFalse(test("a[]b", "ab"));
    }

    @Test
    void whiteSpaceIsEcmasWhiteSpace() {
        assertTrue(test("^a\\sb$", "a\u00a0b"));
        assertTrue(test("^a\\sb$", "a\u000bb"));
        assertTrue(test("^a\\sb$", "a\ufeffb"));
        assertTrue(test("^a[\\s]b$", "a\u3000b"));
        assertFalse(test("^a\\Sb$", "a\u00a0b"));
        assertTrue(test("^a\\Sb$", "axb"));
        assertTrue(test("^[\\S\\s]+$", "any\nthing"));
    }

    @Test
    void escapesReadAsEcmaReadsThem() {
        assertTrue(test("^\\u0041\\u{1F600}$", "A😀"));
        assertTrue(test("^\\x41\\cJ$", "A\n"));
        assertTrue(test("^[\\b]$", "\b"));
        assertTrue(test("\\bword\\b", "a word here"));
        assertTrue(test("^\\d{3}-\\w+\\/\\.$", "123-ab_c/."));
        assertTrue(test("^\\p{Lu}", "Émile"));
        assertTrue(test("^(?<year>\\d{4})-(?:\\d\\d)$", "2024-05"));
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
