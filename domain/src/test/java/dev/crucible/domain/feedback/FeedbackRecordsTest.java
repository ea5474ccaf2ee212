package dev.crucible.domain.feedback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The invariants of a feedback query and a purge, checked where they are built. */
class FeedbackRecordsTest {

    private static final ProjectId PROJECT = new ProjectId("gina", "proj");

    private static FeedbackQuery query(OptionalLong limit, OptionalLong offset) {
        return new FeedbackQuery(PROJECT, List.of(), Optional.empty(), List.of(), limit, offset);
    }

    @Test
    void aQueryCopiesItsListsAndRefusesNegativePaging() {
        List<FeedbackField> fields = new ArrayList<>();
        FeedbackQuery query = new FeedbackQuery(PROJECT, fields, Optional.empty(), new ArrayList<>(),
                OptionalLong.of(0), OptionalLong.of(0));
        fields.add(null);
        assertEquals(List.of(), query.fields());
        assertThrows(UnsupportedOperationException.class, () -> query.sortBy().add(null));
        assertEquals("limit and offset must be non-negative", assertThrows(IllegalArgumentException.class,
                () -> query(OptionalLong.of(-1), OptionalLong.empty())).getMessage());
        assertThrows(IllegalArgumentException.class, () -> query(OptionalLong.empty(), OptionalLong.of(-1)));
        assertEquals(OptionalLong.empty(), query(OptionalLong.empty(), OptionalLong.empty()).limit());
    }

    @Test
    void aQueryNeedsEveryPart() {
        assertEquals("project", assertThrows(NullPointerException.class, () -> new FeedbackQuery(null, List.of(),
                Optional.empty(), List.of(), OptionalLong.empty(), OptionalLong.empty())).getMessage());
        assertEquals("filter", assertThrows(NullPointerException.class, () -> new FeedbackQuery(PROJECT, List.of(),
                null, List.of(), OptionalLong.empty(), OptionalLong.empty())).getMessage());
        assertEquals("limit", assertThrows(NullPointerException.class, () -> query(null, OptionalLong.empty()))
                .getMessage());
        assertEquals("offset", assertThrows(NullPointerException.class, () -> query(OptionalLong.empty(), null))
                .getMessage());
    }

    @Test
    void aPurgeNamesDistinctIdsAndOnlyUuidsNameRows() {
        FeedbackId row = FeedbackId.random();
        FeedbackPurge purge = new FeedbackPurge(PROJECT, List.of(row.toString(), "not-a-uuid", row.toString()));
        assertEquals(List.of(row.toString(), "not-a-uuid"), purge.ids());
        assertEquals(List.of(row), purge.rowIds());
        assertEquals("a purge names at least one id", assertThrows(IllegalArgumentException.class,
                () -> new FeedbackPurge(PROJECT, List.of())).getMessage());
        assertEquals("project", assertThrows(NullPointerException.class,
                () -> new FeedbackPurge(null, List.of("x"))).getMessage());
    }
}
