package dev.crucible.adapters.http.body;

import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;

/**
 * How large a request body may be, per route, and how many body bytes all requests together may have in flight.
 * Trajectory uploads (RL jobs, the trajectory log) and file uploads may use the whole {@code crucible.max-body-bytes};
 * every other JSON body (chat, models, feedback, objects, SFT jobs) is held to {@code crucible.body.max-json-bytes}.
 */
@Singleton
public final class BodyLimits {

    private final long maxBodyBytes;
    private final long maxJsonBytes;
    private final long maxInFlightBytes;

    BodyLimits(@Value("${crucible.max-body-bytes:268435456}") long maxBodyBytes,
            @Value("${crucible.body.max-json-bytes:33554432}") long maxJsonBytes,
            @Value("${crucible.body.max-in-flight-bytes:536870912}") long maxInFlightBytes) {
        if (maxBodyBytes <= 0 || maxJsonBytes <= 0 || maxInFlightBytes <= 0) {
            throw new IllegalArgumentException("crucible.max-body-bytes, crucible.body.max-json-bytes and "
                    + "crucible.body.max-in-flight-bytes must be positive");
        }
        this.maxBodyBytes = maxBodyBytes;
        this.maxJsonBytes = Math.min(maxJsonBytes, maxBodyBytes);
        this.maxInFlightBytes = maxInFlightBytes;
    }

    /** The largest body a trajectory or file upload may have. */
    public long largeBodyBytes() {
        return maxBodyBytes;
    }

    /** The largest body any other route may have. */
    public long jsonBodyBytes() {
        return maxJsonBytes;
    }

    /** The most body bytes that requests may have in flight together. */
    long maxInFlightBytes() {
        return maxInFlightBytes;
    }

    /** The limit for a body sent to {@code path}. */
    long limitFor(String path) {
        return isLarge(path) ? maxBodyBytes : maxJsonBytes;
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
