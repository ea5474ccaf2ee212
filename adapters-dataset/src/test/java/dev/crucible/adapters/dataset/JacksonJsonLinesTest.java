package dev.crucible.adapters.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JacksonJsonLinesTest {

    private final JacksonJsonLines parser = new JacksonJsonLines();

    @Test
    void parsesPlainValuesKeepingKeyOrder() {
        Object value = parser.parse("{\"z\": 1, \"a\": [true, null, 2.5, \"s\"], \"m\": {}}");
        assertEquals(List.of("z", "a", "m"), List.copyOf(((Map<?, ?>) value).keySet()));
        assertEquals(Map.of(), ((Map<?, ?>) value).get("m"));
        assertNull(parser.parse("null"));
    }

    @Test
    void refusesTrailingContentAndBrokenJson() {
        IllegalArgumentException twoValues = assertThrows(IllegalArgumentException.class, () -> parser.parse("{} {}"));
        assertTrue(twoValues.getMessage().contains("Trailing token"), twoValues.getMessage());
        IllegalArgumentException broken = assertThrows(IllegalArgumentException.class,
                () -> parser.parse("{\"messages\": [}"));
        assertTrue(broken.getMessage().endsWith("(column 15)"), broken.getMessage());
        assertTrue(!broken.getMessage().contains("\n"), broken.getMessage());
    }
}
