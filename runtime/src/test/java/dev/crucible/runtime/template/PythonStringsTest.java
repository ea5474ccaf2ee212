package dev.crucible.runtime.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Expected values are what Python 3.11's str methods give for the same input. */
class PythonStringsTest {

    @Test
    void splitsOnASeparatorKeepingEmptyParts() {
        assertEquals(List.of("a", "b", "", ""), PythonStrings.split("a,b,,", ",", -1));
        assertEquals(List.of("", ""), PythonStrings.split("a</think>", "a</think>", -1));
        assertEquals(List.of("a", "b c"), PythonStrings.split("a b c", " ", 1));
        assertEquals(List.of(""), PythonStrings.split("", ",", -1));
        assertEquals(List.of("a.b"), PythonStrings.split("a.b", ".*", -1));
    }

    @Test
    void splitsOnUnicodeWhitespaceRunsWithoutASeparator() {
        assertEquals(List.of("a", "b", "c", "d\u200be"),
                PythonStrings.split(" a\u00a0b\u2003c\u0085d\u200be ", null, -1));
        assertEquals(List.of("a", "b  "), PythonStrings.split("  a  b  ", null, 1));
        assertEquals(List.of(), PythonStrings.split("", null, -1));
    }

    @Test
    void refusesAnEmptySeparatorAsPythonDoes() {
        assertThrows(IllegalArgumentException.class, () -> PythonStrings.split("abc", "", -1));
    }

    @Test
    void stripsUnicodeWhitespaceOrTheGivenCharacters() {
        assertEquals("a\u00a0b", PythonStrings.strip("\u2003\u0085 a\u00a0b\u00a0\n", null, true, true));
        assertEquals("hi", PythonStrings.strip("xyhiyx", "xy", true, true));
        assertEquals("hiyx", PythonStrings.strip("xyhiyx", "xy", true, false));
        assertEquals("\n\nthought", PythonStrings.strip("\n\nthought\n\n", "\n", false, true));
    }

    @Test
    void splitsLinesOnPythonLineBoundaries() {
        assertEquals(List.of("x", "y", "z", "w", "v"), PythonStrings.splitlines("x\r\ny\nz\u000bw\u2028v\n"));
    }

    @Test
    void titlesCapitalizesCountsAndReplacesAsPython() {
        assertEquals("They'Re Bill'S 1St O'Neil", PythonStrings.title("they're bill's 1st o'neil"));
        assertEquals("Hello world", PythonStrings.capitalize("hELLO wORLD"));
        assertEquals(2, PythonStrings.count("aaaa", "aa"));
        assertEquals(4, PythonStrings.count("abc", ""));
        assertEquals("bba", PythonStrings.replace("aaa", "a", "b", 2));
    }
}
