package dev.crucible.domain.paging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PageTest {

    private static PageRequest limit(int limit) {
        return new PageRequest(Optional.empty(), limit, SortOrder.ASC);
    }

    @Test
    void anExtraFetchedRowMeansMoreAndIsCut() {
        Page<Integer> page = Page.fromFetch(List.of(1, 2, 3), limit(2));
        assertEquals(List.of(1, 2), page.items());
        assertTrue(page.hasMore());
    }

    @Test
    void exactlyLimitRowsMeansNoMore() {
        Page<Integer> page = Page.fromFetch(List.of(1, 2), limit(2));
        assertEquals(List.of(1, 2), page.items());
        assertFalse(page.hasMore());
    }

    @Test
    void fewerRowsThanLimitMeansNoMore() {
        Page<Integer> page = Page.fromFetch(List.of(1), limit(2));
        assertEquals(List.of(1), page.items());
        assertFalse(page.hasMore());
    }

    @Test
    void anEmptyFetchIsAnEmptyLastPage() {
        Page<Integer> page = Page.fromFetch(List.of(), limit(5));
        assertEquals(List.of(), page.items());
        assertFalse(page.hasMore());
    }

    @Test
    void itemsAreAnImmutableCopy() {
        List<Integer> source = new ArrayList<>(List.of(1, 2));
        Page<Integer> page = new Page<>(source, false);
        source.add(3);
        assertEquals(List.of(1, 2), page.items());
        assertThrows(UnsupportedOperationException.class, () -> page.items().add(4));
    }

    @Test
    void rejectsNullItems() {
        assertThrows(NullPointerException.class, () -> new Page<>(null, false));
    }
}
