package dev.crucible.domain.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Expected strings are what CPython 3.11's json.dumps and repr print for the same input. */
class PythonStringsTest {

    private static String quoted(String s, boolean ensureAscii) {
        StringBuilder out = new StringBuilder();
        PythonStrings.appendQuoted(s, ensureAscii, out);
        return out.toString();
    }

    @Test
    void escapesQuotesBackslashesAndNamedControls() {
        assertEquals("\"a\\\"b\\\\c\\n\\r\\t\\b\\f\"", quoted("a\"b\\c\n\r\t\b\f", false));
    }

    @Test
    void otherControlsBecomeLowerCaseUnicodeEscapes() {
        assertEquals("\"\\u0001\\u001f\"", quoted("\u0001\u001f", false));
    }

    @Test
    void ensureAsciiEscapesEverythingOutsidePrintableAsciiIncludingSurrogatePairs() {
        assertEquals("\"caf\\u00e9 \\ud83d\\udc4d \\u007f\"", quoted("café 👍 \u007f", true));
        assertEquals("\"café 👍 \u007f\"", quoted("café 👍 \u007f", false));
    }

    @Test
    void reprUsesSingleQuotesUnlessOnlyASingleQuoteIsInside() {
        assertEquals("'x'", PythonStrings.repr("x"));
        assertEquals("''", PythonStrings.repr(""));
        assertEquals("\"it's\"", PythonStrings.repr("it's"));
        assertEquals("'it\\'s \"q\"'", PythonStrings.repr("it's \"q\""));
    }

    @Test
    void reprEscapesBackslashesNamedControlsAndOtherControlsAsHex() {
        assertEquals("'a\\\\b\\n\\r\\t\\x01\\x7f'", PythonStrings.repr("a\\b\n\r\t\u0001\u007f"));
    }
}
