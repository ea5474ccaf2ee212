package dev.crucible.domain.idempotency;

import java.util.Objects;

/**
 * The answer a creating request got, kept so that a retry with the same key gets it again.
 *
 * @param status the HTTP status it was answered with
 * @param json the body it was answered with, JSON text
 */
public record RecordedAnswer(int status, String json) {

    public RecordedAnswer {
        Objects.requireNonNull(json, "json");
        if (status < 200 || status > 299) {
            throw new IllegalArgumentException("only successful answers are recorded, got " + status);
        }
    }
}
