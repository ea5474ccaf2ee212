package dev.crucible.domain.paging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SortOrderTest {

    @Test
    void parsesAscAndDescIgnoringCase() {
        assertEquals(Optional.of(SortOrder.ASC), SortOrder.parse("asc"));
        assertEquals(Optional.of(SortOrder.ASC), SortOrder.parse("ASC"));
        assertEquals(Optional.of(SortOrder.DESC), SortOrder.parse("desc"));
        assertEquals(Optional.of(SortOrder.DESC), SortOrder.parse("Desc"));
    }

    @Test
    void anythingElseIsEmpty() {
        assertEquals(Optional.empty(), SortOrder.parse("ascending"));
        assertEquals(Optional.empty(), SortOrder.parse(""));
    }
}
