package dev.crucible.adapters.http.file;

import io.micronaut.serde.annotation.Serdeable;

/** OpenAI's answer to deleting a file: {@code {id, object: "file", deleted: true}}. */
@Serdeable
record FileDeletedView(String id, String object, boolean deleted) {

    static FileDeletedView of(String id) {
        return new FileDeletedView(id, "file", true);
    }
}
