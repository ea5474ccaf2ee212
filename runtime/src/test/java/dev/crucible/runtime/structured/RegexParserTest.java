package dev.crucible.runtime.structured;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RegexParserTest {

    private static boolean matches(String pattern, String text) {
        return ByteDfa.of(RegexParser.parse(pattern)).matches(text.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "abc;abc;true", "abc;abcd;false", "abc;ab;false", "a|b;b;true", "(ab)+;ababab;true", "(ab)+;'';false",
        "(?:ab)*;'';true", "a{2,3};aaa;true", "a{2,3};aaaa;false", "a{2};aa;true", "a{2,};aaaaaa;true",
        "a{,2};'';true", "a{,2};aaa;false", "a+?b;aab;true", "colou?r;color;true", "\\d+;0123;true",
        "\\d+;12a;false", "\\w+;ab_9;true", "\\s;' ';true", "\\D;a;true", "\\D;5;false", "[a-c]+;abcab;true",
        "[a-c]+;abd;false", "[^a-c];d;true", "[^a-c];a;false", "[]a]+;]a];true", "[a\\-z]+;-;true",
        "[\\d.]+;1.5;true", ".;\\n;false", ".;é;true", ".;😀;true", "\\.;.;true", "\\.;x;false",
        "\\(\\);();true", "\\x41\\u00e9;Aé;true", "a{x;a{x;true", "^abc$;abc;true", "\\Aabc\\Z;abc;true",
        "(?P<year>\\d{4})-(?<m>\\d\\d);2024-05;true", "[€é]+;é€é;true", "[😀-😂];😁;true",
        "\"[a-z]+\";\"abc\";true",
    })
    void matchesAsPythonFullmatch(String pattern, String text, boolean expected) {
        String t = text.equals("\\n") ? "\n" : text;
        assertEquals(expected, matches(pattern, t), pattern + " on " + t);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "[.*|unterminated character set",
        "(ab|missing )",
        "ab)|unbalanced parenthesis",
        "*a|nothing to repeat",
        "a**|multiple repeat",
        "a{3,2}|min repeat greater than max repeat",
        "(a)\\1|backreferences",
        "(?=a)|lookaround",
        "\\bword|word boundaries",
        "(?i)abc|inline flags",
        "a++|possessive",
        "a^b|anchors",
        "\\q|bad escape",
        "[z-a]|bad character range",
        "a{1001}|above 1000",
    })
    void refusesInvalidAndUnsupportedPatterns(String pattern, String message) {
        InvalidConstraintException e = assertThrows(InvalidConstraintException.class, () -> RegexParser.parse(pattern));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void aLanguageWithNoMatchIsRefused() {
        assertThrows(InvalidConstraintException.class, () -> ByteDfa.of(RegexParser.parse("[^\\x00-\\U0010ffff]")));
    }

    @Test
    void bytesInsideAMultiByteCharacterLeadToInnerStates() {
        ByteDfa dfa = ByteDfa.of(RegexParser.parse("é€"));
        int afterFirstByte = dfa.step(dfa.start(), new byte[] {(byte) 0xC3});
        assertTrue(afterFirstByte != ByteDfa.DEAD);
        assertFalse(dfa.accepts(afterFirstByte));
        int afterE = dfa.step(afterFirstByte, new byte[] {(byte) 0xA9, (byte) 0xE2});
        assertTrue(afterE != ByteDfa.DEAD);
        assertEquals(ByteDfa.DEAD, dfa.step(afterE, new byte[] {(byte) 0x41}));
        int end = dfa.step(afterE, new byte[] {(byte) 0x82, (byte) 0xAC});
        assertTrue(dfa.accepts(end));
        assertFalse(dfa.canContinue(end));
    }

    @Test
    void aStateOnlyWithDeadEndsAheadIsNotReached() {
        // after "a" only "b" can lead to a match: "ac" is dead at once, not after more bytes
        ByteDfa dfa = ByteDfa.of(RegexParser.parse("ab|c"));
        int a = dfa.step(dfa.start(), (byte) 'a');
        assertEquals(ByteDfa.DEAD, dfa.step(a, (byte) 'c'));
        assertTrue(dfa.canContinue(a));
    }
}
