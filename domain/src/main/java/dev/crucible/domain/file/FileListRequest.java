package dev.crucible.domain.file;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.paging.SortOrder;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of an entity's files, as OpenAI's {@code GET /v1/files} takes it: by creation time, newest first unless
 * {@code order} says otherwise.
 *
 * @param purpose only files with this purpose, or all when empty
 * @param after   the id of the last file of the previous page (exclusive), or empty for the first page
 * @param limit   number of files, {@value #MIN_LIMIT} to {@value #MAX_LIMIT}
 * @param order   by creation time
 */
public record FileListRequest(Optional<FilePurpose> purpose, Optional<FileId> after, int limit, SortOrder order) {

    public static final int MIN_LIMIT = 1;
    public static final int MAX_LIMIT = 10_000;
    public static final int DEFAULT_LIMIT = 10_000;
    public static final SortOrder DEFAULT_ORDER = SortOrder.DESC;

    public FileListRequest {
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(after, "after");
        Objects.requireNonNull(order, "order");
        if (limit < MIN_LIMIT || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be between 1 and 10000, got " + limit);
        }
    }

    /** Builds a request, refusing a limit outside {@value #MIN_LIMIT}..{@value #MAX_LIMIT} as a value naming it. */
    public static Outcome<FileListRequest> of(Optional<FilePurpose> purpose, Optional<FileId> after, int limit,
            SortOrder order) {
        if (limit < MIN_LIMIT || limit > MAX_LIMIT) {
            return Outcome.refused(Refusal.invalid("limit",
                    "limit must be between " + MIN_LIMIT + " and " + MAX_LIMIT + ", got " + limit));
        }
        return Outcome.done(new FileListRequest(purpose, after, limit, order));
    }

    /** How many rows to fetch so that one extra row tells whether more exist. */
    public int fetchSize() {
        return limit + 1;
    }
}
