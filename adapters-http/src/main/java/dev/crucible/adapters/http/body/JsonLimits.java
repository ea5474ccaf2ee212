package dev.crucible.adapters.http.body;

import io.micronaut.context.annotation.Value;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * The limits a JSON request body is parsed under ({@code crucible.json.*}): the longest string (characters), the
 * deepest nesting of objects and arrays and the longest number (characters). Unset (0), the string limit follows
 * {@code crucible.max-body-bytes}, so any string a body may carry is accepted and the body limit is the one that
 * binds; depth and number length are fixed bounds that no real request comes near. The document's length is the
 * route's body limit ({@code BodyLimits}).
 *
 * @param maxStringLength longest JSON string (a value or a key), in characters
 * @param maxNestingDepth deepest nesting of objects and arrays
 * @param maxNumberLength longest number, in characters
 */
@Singleton
public record JsonLimits(int maxStringLength, int maxNestingDepth, int maxNumberLength) {

    public JsonLimits {
        positive(maxNestingDepth, "crucible.json.max-nesting-depth");
        positive(maxNumberLength, "crucible.json.max-number-length");
    }

    @Inject
    JsonLimits(@Value("${crucible.max-body-bytes:268435456}") long maxBodyBytes,
            @Value("${crucible.json.max-string-length:0}") int maxStringLength,
            @Value("${crucible.json.max-nesting-depth:256}") int maxNestingDepth,
            @Value("${crucible.json.max-number-length:1000}") int maxNumberLength) {
        this(maxStringLength > 0 ? maxStringLength : (int) Math.min(Integer.MAX_VALUE, maxBodyBytes), maxNestingDepth,
                maxNumberLength);
    }

    private static void positive(int value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, got " + value);
        }
    }
}
