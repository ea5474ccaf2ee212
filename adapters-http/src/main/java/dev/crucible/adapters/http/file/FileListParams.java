package dev.crucible.adapters.http.file;

import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.file.FileListRequest;
import dev.crucible.domain.file.FilePurpose;
import java.util.Optional;

/** The query of {@code GET /v1/files} with OpenAI's defaults: every purpose, up to 10,000 files, newest first. */
final class FileListParams {

    private FileListParams() {
    }

    static FileListRequest read(String purpose, String limit, String after, String order) {
        Optional<FilePurpose> kind = blank(purpose) ? Optional.empty() : Optional.of(FilePurpose.parse(purpose)
                .orElseThrow(() -> RefusalException.invalid("purpose",
                        "purpose must be one of " + FilePurpose.names() + ", got '" + abbreviate(purpose) + "'")));
        Optional<FileId> cursor = blank(after) ? Optional.empty() : Optional.of(FileId.parse(after)
                .orElseThrow(() -> RefusalException.invalid("after",
                        "after must be a file id (file-...), got '" + abbreviate(after) + "'")));
        int size = FileListRequest.DEFAULT_LIMIT;
        if (!blank(limit)) {
            try {
                size = Integer.parseInt(limit.strip());
            } catch (NumberFormatException e) {
                throw RefusalException.invalid("limit", "limit must be an integer between " + FileListRequest.MIN_LIMIT
                        + " and " + FileListRequest.MAX_LIMIT + ", got '" + abbreviate(limit) + "'");
            }
        }
        SortOrder direction = blank(order) ? FileListRequest.DEFAULT_ORDER : SortOrder.parse(order).orElseThrow(() ->
                RefusalException.invalid("order", "order must be 'asc' or 'desc', got '" + abbreviate(order) + "'"));
        return RefusalException.unwrap(FileListRequest.of(kind, cursor, size, direction));
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static String abbreviate(String value) {
        return value.length() > 64 ? value.substring(0, 64) + "…" : value;
    }
}
