package dev.crucible.adapters.http.body;

import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.time.Duration;

/**
 * How large a request body may be, per route; how many body bytes all requests together, and one key's requests
 * together, may have received and not yet answered; how many uploads one key may send at once; and how long a body
 * may stall. Trajectory uploads (RL jobs, the trajectory log) and file uploads may use the whole
 * {@code crucible.max-body-bytes}; every other JSON body (chat, models, feedback, objects, SFT jobs) is held to
 * {@code crucible.body.max-json-bytes}.
 *
 * @param largeBodyBytes the largest body a trajectory or file upload may have
 * @param jsonBodyBytes the largest body any other route may have (never more than {@code largeBodyBytes})
 * @param maxInFlightBytes the most body bytes that requests may have received, and not yet been answered, together
 * @param maxInFlightBytesPerKey the same, for the requests that present one API key
 * @param maxUploadsPerKey the most uploads (bodies to the routes that take {@code largeBodyBytes}) one key may send
 *        at once
 * @param readTimeout the longest a body may go without a byte arriving before it is answered 408 and its connection
 *        closed
 */
@Singleton
public record BodyLimits(
        @Value("${crucible.max-body-bytes:268435456}") long largeBodyBytes,
        @Value("${crucible.body.max-json-bytes:33554432}") long jsonBodyBytes,
        @Value("${crucible.body.max-in-flight-bytes:536870912}") long maxInFlightBytes,
        @Value("${crucible.body.max-in-flight-bytes-per-key:268435456}") long maxInFlightBytesPerKey,
        @Value("${crucible.body.max-uploads-per-key:4}") int maxUploadsPerKey,
        @Value("${crucible.body.read-timeout:30s}") Duration readTimeout) {

    public BodyLimits {
        if (largeBodyBytes <= 0 || jsonBodyBytes <= 0 || maxInFlightBytes <= 0 || maxInFlightBytesPerKey <= 0) {
            throw new IllegalArgumentException("crucible.max-body-bytes, crucible.body.max-json-bytes, "
                    + "crucible.body.max-in-flight-bytes and crucible.body.max-in-flight-bytes-per-key must be positive");
        }
        if (maxUploadsPerKey < 1) {
            throw new IllegalArgumentException("crucible.body.max-uploads-per-key must be >= 1, got " + maxUploadsPerKey);
        }
        if (readTimeout == null || readTimeout.isNegative() || readTimeout.isZero()) {
            throw new IllegalArgumentException("crucible.body.read-timeout must be positive, got " + readTimeout);
        }
        jsonBodyBytes = Math.min(jsonBodyBytes, largeBodyBytes);
    }

    /** The limit for a body sent to {@code path}. */
    long limitFor(String path) {
        return isUpload(path) ? largeBodyBytes : jsonBodyBytes;
    }

    /** The setting that names the limit for {@code path}, for the refusal's message. */
    static String settingFor(String path) {
        return isUpload(path) ? "crucible.max-body-bytes" : "crucible.body.max-json-bytes";
    }

    /** Whether {@code path} takes uploads: trajectories and files, bodies up to {@code crucible.max-body-bytes}. */
    static boolean isUpload(String path) {
        return path.equals("/v1/preview/training-jobs") || path.equals("/v1/files")
                || path.startsWith("/v1/preview/models/") && path.endsWith("/log");
    }
}
