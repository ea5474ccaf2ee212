package dev.crucible.runtime.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Expected values are what Python 3.11's str methods give for the same input. */
class PythonStrMethodsTest {

    @Test
    void splitsOnASeparatorKeepingEmptyParts() {
        assertEquals(List.of("a", "b", "", ""), PythonStrMethods.split("a,b,,", ",", -1));
        assertEquals(List.of("", ""), PythonStrMethods.split("a</think>", "a</think>", -1));
        assertEquals(List.of("a", "b c"), PythonStrMethods.split("a b c", " ", 1));
        assertEquals(List.of(""), PythonStrMethods.split("", ",", -1));
        assertEquals(List.of("a.b"), PythonStrMethods.split("a.b", ".*", -1));
    }

    @Test
    void splitsOnUnicodeWhitespaceRunsWithoutASeparator() {
        assertEquals(List.of("a", "b", "c", "d\u200be"),
                PythonStrMethods.split(" a\u00a0b\u2003c\u0085d\u200be ", null, -1));
        assertEquals(List.of("a", "b  "), PythonStrMethods.split("  a  b  ", null, 1));
        assertEquals(List.of(), PythonStrMethods.split("", null, -1));
    }

    @Test
    void refusesAnEmptySeparatorAsPythonDoes() {
        assertThrows(IllegalArgumentException.class, () -> PythonStrMethods.split("abc", "", -1));
    }

    @Test
    void stripsUnicodeWhitespaceOrTheGivenCharacters() {
        assertEquals("a\u00a0b", PythonStrMethods.strip("\u2003\u0085 a\u00a0b\u00a0\n", null, true, true));
        assertEquals("hi", PythonStrMethods.strip("xyhiyx", "xy", true, true));
        assertEquals("hiyx", PythonStrMethods.strip("xyhiyx", "xy", true, false));
        assertEquals("\n\nthought", PythonStrMethods.strip("\n\nthought\n\n", "\n", false, true));
    }

    @Test
    void splitsLinesOnPythonLineBoundaries() {
        assertEquals(List.of("x", "y", "z", "w", "v"), PythonStrMethods.splitlines("x\r\ny\nz\u000bw\u2028v\n"));
    }

    @Test
    void titlesCapitalizesCountsAndReplacesAsPython() {
        assertEquals("They'Re Bill'S 1St O'Neil", PythonStrMethods.title("they're bill's 1st o'neil"));
        assertEquals("Hello world", PythonStrMethods.capitalize("hELLO wORLD"));
        assertEquals(2, PythonStrMethods.count("aaaa", "aa"));
        assertEquals(4, PythonStrMethods.count("abc", ""));
        assertEquals("bba", PythonStrMethods.replace("aaa", "a", "b", 2));
    }
}
