package dev.crucible.runtime.structured;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class LruMapTest {

    @Test
    void theLeastRecentlyUsedEntryGoesWhenOneMoreIsPut() {
        LruMap<String, Integer> map = new LruMap<>(2);
        map.put("a", 1);
        map.put("b", 2);
        map.get("a");
        map.put("c", 3);
        assertEquals(List.of("a", "c"), List.copyOf(map.keySet()), "b was used least recently");
        map.put("a", 4);
        map.put("d", 5);
        assertEquals(List.of("a", "d"), List.copyOf(map.keySet()), "writing a counts as using it");
    }

    @Test
    void aCapacityBelowOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LruMap<String, Integer>(0));
    }
}
