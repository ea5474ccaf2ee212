package dev.crucible.kernel.python;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PythonReprTest {

    /** A string and its repr as CPython 3.11 prints it. */
    static Stream<Arguments> strings() {
        return Stream.of(
                arguments("x", "'x'"),
                arguments("", "''"),
                arguments("it's", "\"it's\""),
                arguments("it's \"q\"", "'it\\'s \"q\"'"),
                arguments("a\\b\n\r\t\u0001\u007f", "'a\\\\b\\n\\r\\t\\x01\\x7f'"),
                arguments("é\u0085\u200b\ud800😀", "'é\\x85\\u200b\\ud800😀'"),
                arguments("'x", "\"'x\""),
                arguments("\"a'", "'\"a\\''"),
                arguments("\u001f \u007f", "'\\x1f \\x7f'"),
                arguments("\u00ad", "'\\xad'"),
                arguments("\uffff", "'\\uffff'"),
                arguments("\udb40\udc01", "'\\U000e0001'"));
    }

    /** Single quotes unless only a single quote is inside; backslashes, named controls, then hex for the rest. */
    @ParameterizedTest
    @MethodSource("strings")
    void reprQuotesAndEscapesAsPython(String text, String repr) {
        assertEquals(repr, PythonRepr.string(text));
    }

    @Test
    void jsonValuesAreWrittenAsPythonPrintsThem() {
        Map<String, Object> dict = new LinkedHashMap<>();
        dict.put("a", List.of(1, 2.5, true));
        dict.put("b", null);
        assertEquals("{'a': [1, 2.5, True], 'b': None}", PythonRepr.of(dict));
    }
}
