package dev.crucible.adapters.http.body;

import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;

/**
 * How large a request body may be, per route, and how many body bytes all requests together may have in flight.
 * Trajectory uploads (RL jobs, the trajectory log) and file uploads may use the whole {@code crucible.max-body-bytes};
 * every other JSON body (chat, models, feedback, objects, SFT jobs) is held to {@code crucible.body.max-json-bytes}.
 *
 * @param largeBodyBytes the largest body a trajectory or file upload may have
 * @param jsonBodyBytes the largest body any other route may have (never more than {@code largeBodyBytes})
 * @param maxInFlightBytes the most body bytes that requests may have in flight together
 */
@Singleton
public record BodyLimits(
        @Value("${crucible.max-body-bytes:268435456}") long largeBodyBytes,
        @Value("${crucible.body.max-json-bytes:33554432}") long jsonBodyBytes,
        @Value("${crucible.body.max-in-flight-bytes:536870912}") long maxInFlightBytes) {

    public BodyLimits {
        if (largeBodyBytes <= 0 || jsonBodyBytes <= 0 || maxInFlightBytes <= 0) {
            throw new IllegalArgumentException("crucible.max-body-bytes, crucible.body.max-json-bytes and "
                    + "crucible.body.max-in-flight-bytes must be positive");
        }
        jsonBodyBytes = Math.min(jsonBodyBytes, largeBodyBytes);
    }

    /** The limit for a body sent to {@code path}. */
    long limitFor(String path) {
        return isLarge(path) ? largeBodyBytes : jsonBodyBytes;
    }

    /** The setting that names the limit for {@code path}, for the refusal's message. */
    static String settingFor(String path) {
        return isLarge(path) ? "crucible.max-body-bytes" : "crucible.body.max-json-bytes";
    }

    private static boolean isLarge(String path) {
        return path.equals("/v1/preview/training-jobs") || path.equals("/v1/files")
                || path.startsWith("/v1/preview/models/") && path.endsWith("/log");
    }
}
