package dev.crucible.domain.file;

import dev.crucible.domain.ids.PrefixedHexId;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Identity of an uploaded file. On the wire it reads {@code file-<32 hex digits>}, the shape OpenAI's file ids
 * have (a {@code file-} prefix), so that SDKs and {@code training_data_url} can pass it around as a string.
 */
public record FileId(UUID value) {

    /** The prefix every file id carries on the wire. */
    public static final String PREFIX = "file-";

    public FileId {
        Objects.requireNonNull(value, "value");
    }

    public static FileId random() {
        return new FileId(UUID.randomUUID());
    }

    /** Parses the wire form; anything else (another prefix, upper-case hex, a wrong length) is empty. */
    public static Optional<FileId> parse(String text) {
        return PrefixedHexId.parse(PREFIX, text).map(FileId::new);
    }

    /** Whether {@code text} is meant as a file id (it has the prefix), well-formed or not. */
    public static boolean looksLikeOne(String text) {
        return text != null && text.startsWith(PREFIX);
    }

    @Override
    public String toString() {
        return PrefixedHexId.format(PREFIX, value);
    }
}
