package dev.crucible.domain.file;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertInvalid;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.domain.paging.SortOrder;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FileListRequestTest {

    private static final Optional<FilePurpose> ANY = Optional.empty();
    private static final Optional<FileId> FIRST = Optional.empty();

    @ParameterizedTest
    @ValueSource(ints = {1, 20, 10_000})
    void acceptsLimitsFromOneToTenThousandAndFetchesOneMore(int limit) {
        FileListRequest request = value(FileListRequest.of(ANY, FIRST, limit, SortOrder.DESC));
        assertEquals(limit, request.limit());
        assertEquals(limit + 1, request.fetchSize());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 10_001})
    void refusesALimitOutsideTheRangeNamingIt(int limit) {
        assertInvalid(FileListRequest.of(ANY, FIRST, limit, SortOrder.ASC), "limit",
                "limit must be between 1 and 10000, got " + limit);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new FileListRequest(ANY, FIRST, limit, SortOrder.ASC));
        assertEquals("limit must be between 1 and 10000, got " + limit, e.getMessage());
    }

    @Test
    void everyPartIsRequired() {
        assertEquals("purpose", assertThrows(NullPointerException.class,
                () -> new FileListRequest(null, FIRST, 1, SortOrder.ASC)).getMessage());
        assertEquals("after", assertThrows(NullPointerException.class,
                () -> new FileListRequest(ANY, null, 1, SortOrder.ASC)).getMessage());
        assertEquals("order", assertThrows(NullPointerException.class,
                () -> new FileListRequest(ANY, FIRST, 1, null)).getMessage());
    }
}
