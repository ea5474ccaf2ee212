package dev.crucible.kernel.reading;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonMapsTest {

    @Test
    void dropsNullValuedKeysAndKeepsTheRest() {
        Map<String, Object> map = new HashMap<>();
        map.put("a", 1);
        map.put("b", null);
        map.put("c", "x");
        assertEquals(Map.of("a", 1, "c", "x"), JsonMaps.withoutNulls(map));
    }

    @Test
    void theCopyIsUnmodifiable() {
        Map<String, Object> copy = JsonMaps.withoutNulls(Map.of("a", 1));
        assertThrows(UnsupportedOperationException.class, () -> copy.put("b", 2));
    }

    @Test
    void rejectsANullMap() {
        assertThrows(NullPointerException.class, () -> JsonMaps.withoutNulls(null));
    }
}
