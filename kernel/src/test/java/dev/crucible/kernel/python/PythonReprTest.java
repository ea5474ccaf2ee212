package dev.crucible.kernel.python;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PythonReprTest {

    @Test
    void reprUsesSingleQuotesUnlessOnlyASingleQuoteIsInside() {
        assertEquals("'x'", PythonRepr.string("x"));
        assertEquals("''", PythonRepr.string(""));
        assertEquals("\"it's\"", PythonRepr.string("it's"));
        assertEquals("'it\\'s \"q\"'", PythonRepr.string("it's \"q\""));
    }

    @Test
    void reprEscapesBackslashesNamedControlsAndOtherControlsAsHex() {
        assertEquals("'a\\\\b\\n\\r\\t\\x01\\x7f'", PythonRepr.string("a\\b\n\r\t\u0001\u007f"));
    }

    @Test
    void jsonValuesAreWrittenAsPythonPrintsThem() {
        Map<String, Object> dict = new LinkedHashMap<>();
        dict.put("a", List.of(1, 2.5, true));
        dict.put("b", null);
        assertEquals("{'a': [1, 2.5, True], 'b': None}", PythonRepr.of(dict));
    }
}
