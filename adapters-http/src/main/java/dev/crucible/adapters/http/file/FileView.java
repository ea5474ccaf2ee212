package dev.crucible.adapters.http.file;

import dev.crucible.domain.file.StoredFile;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/**
 * OpenAI's File object: {@code created_at} in Unix seconds, {@code status} always {@code processed} (an upload is
 * complete when it is answered), {@code expires_at} and {@code status_details} null.
 */
@Serdeable(naming = io.micronaut.serde.config.naming.SnakeCaseStrategy.class)
record FileView(String id, String object, long bytes, long createdAt, String filename, String purpose, String status,
        @Nullable Long expiresAt, @Nullable String statusDetails) {

    static FileView of(StoredFile file) {
        return new FileView(file.id().toString(), "file", file.bytes(), file.createdAt().getEpochSecond(),
                file.filename(), file.purpose().wireName(), "processed", null, null);
    }
}
