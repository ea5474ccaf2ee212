package dev.crucible.domain.paging;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertInvalid;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PageRequestTest {

    private static final Optional<UUID> FIRST = Optional.empty();

    @Test
    void acceptsLimitsFrom1To100() {
        assertEquals(1, new PageRequest(FIRST, 1, SortOrder.ASC).limit());
        assertEquals(100, new PageRequest(FIRST, 100, SortOrder.ASC).limit());
    }

    @Test
    void constructorRejectsLimit0() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PageRequest(FIRST, 0, SortOrder.ASC));
        assertEquals("limit must be between 1 and 100, got 0", e.getMessage());
    }

    @Test
    void constructorRejectsLimitAbove100() {
        assertThrows(IllegalArgumentException.class, () -> new PageRequest(FIRST, 101, SortOrder.ASC));
    }

    @Test
    void constructorRejectsNullAfterOrOrder() {
        assertThrows(NullPointerException.class, () -> new PageRequest(null, 10, SortOrder.ASC));
        assertThrows(NullPointerException.class, () -> new PageRequest(FIRST, 10, null));
    }

    @Test
    void ofBuildsARequestWithinBounds() {
        UUID after = UUID.randomUUID();
        assertEquals(new PageRequest(Optional.of(after), 1, SortOrder.DESC),
                value(PageRequest.of(Optional.of(after), 1, SortOrder.DESC)));
        assertEquals(100, value(PageRequest.of(FIRST, 100, SortOrder.ASC)).limit());
    }

    @Test
    void ofRefusesLimit0NamingLimit() {
        assertInvalid(PageRequest.of(FIRST, 0, SortOrder.ASC), "limit", "limit must be between 1 and 100, got 0");
    }

    @Test
    void ofRefusesLimitAbove100NamingLimit() {
        assertInvalid(PageRequest.of(FIRST, 101, SortOrder.ASC), "limit", "limit must be between 1 and 100, got 101");
    }

    /** The bound the stored-completion routes (the list and one completion's messages) share with these requests. */
    @Test
    void limitAloneIsCheckedAsARequestsLimit() {
        assertEquals(1, value(PageRequest.limit(1)));
        assertEquals(100, value(PageRequest.limit(100)));
        assertInvalid(PageRequest.limit(0), "limit", "limit must be between 1 and 100, got 0");
        assertInvalid(PageRequest.limit(101), "limit", "limit must be between 1 and 100, got 101");
    }

    @Test
    void fetchSizeIsOneMoreThanTheLimit() {
        assertEquals(21, new PageRequest(FIRST, PageRequest.DEFAULT_LIMIT, SortOrder.ASC).fetchSize());
        assertEquals(101, new PageRequest(FIRST, 100, SortOrder.ASC).fetchSize());
    }

    @Test
    void theCursorIsFoundAmongTheCallersItemsOrRefusedNamingAfter() {
        UUID mine = UUID.fromString("00000000-0000-0000-0000-000000000001");
        UUID theirs = UUID.fromString("00000000-0000-0000-0000-000000000002");
        java.util.function.Function<UUID, Optional<String>> find = id -> id.equals(mine) ? Optional.of("mine")
                : Optional.empty();
        assertEquals(Optional.empty(), value(new PageRequest(FIRST, 10, SortOrder.ASC).cursor(find, "things")));
        assertEquals(Optional.of("mine"), value(new PageRequest(Optional.of(mine), 10, SortOrder.ASC).cursor(find, "things")));
        assertInvalid(new PageRequest(Optional.of(theirs), 10, SortOrder.ASC).cursor(find, "things"), "after",
                "after '" + theirs + "' is not one of your things");
    }

    @Test
    void aListFetchesFromTheFoundCursorAndKeepsTheExtraRowOnlyAsHasMore() {
        UUID mine = UUID.fromString("00000000-0000-0000-0000-000000000001");
        PageRequest request = new PageRequest(Optional.of(mine), 2, SortOrder.ASC);
        Page<String> page = value(request.list(id -> Optional.of("cursor " + id), "things",
                after -> List.of(after.orElseThrow(), "b", "c")));
        assertEquals(List.of("cursor " + mine, "b"), page.items());
        assertTrue(page.hasMore());
        assertInvalid(request.list(id -> Optional.empty(), "things", after -> List.of()), "after",
                "after '" + mine + "' is not one of your things");
    }
}
