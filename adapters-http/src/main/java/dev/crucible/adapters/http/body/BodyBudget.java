package dev.crucible.adapters.http.body;

import jakarta.inject.Singleton;
import java.util.HashMap;
import java.util.Map;

/**
 * The body bytes that requests have received and not yet been answered, bounded across all requests by
 * {@code crucible.body.max-in-flight-bytes} and per API key by {@code crucible.body.max-in-flight-bytes-per-key};
 * and the uploads each key is sending, bounded by {@code crucible.body.max-uploads-per-key}. Bytes are reserved as
 * they arrive (a body's declared length reserves nothing), so a body that is declared large and sent slowly holds
 * only what it has sent. A request that holds every byte in flight (of the server, or of its key) may always go on,
 * so one body up to its route's limit can always be sent.
 *
 * <p>Thread-safe: every method takes this object's lock (one call per received chunk, so it is never contended for
 * long).
 */
@Singleton
final class BodyBudget {

    /** What a reservation met. */
    enum Admission { ADMITTED, SERVER_FULL, KEY_FULL }

    private final BodyLimits limits;
    private long inFlight;
    private final Map<String, Long> perKey = new HashMap<>();
    private final Map<String, Integer> uploads = new HashMap<>();

    BodyBudget(BodyLimits limits) {
        this.limits = limits;
    }

    /**
     * Reserves {@code bytes} more for a request of key {@code bucket} that already holds {@code held}; nothing is
     * reserved unless the answer is {@code ADMITTED}. Refused only when others hold bytes too and the total would
     * pass the bound.
     */
    synchronized Admission tryReserve(String bucket, long bytes, long held) {
        Admission admission = check(bucket, bytes, held);
        if (admission == Admission.ADMITTED) {
            inFlight += bytes;
            perKey.merge(bucket, bytes, Long::sum);
        }
        return admission;
    }

    /** What reserving {@code bytes} for a new request of key {@code bucket} would meet; nothing is reserved. */
    synchronized Admission wouldAdmit(String bucket, long bytes) {
        return check(bucket, bytes, 0);
    }

    private Admission check(String bucket, long bytes, long held) {
        if (inFlight > held && inFlight + bytes > limits.maxInFlightBytes()) {
            return Admission.SERVER_FULL;
        }
        long ofKey = perKey.getOrDefault(bucket, 0L);
        if (ofKey > held && ofKey + bytes > limits.maxInFlightBytesPerKey()) {
            return Admission.KEY_FULL;
        }
        return Admission.ADMITTED;
    }

    synchronized void release(String bucket, long bytes) {
        if (bytes == 0) {
            return;
        }
        inFlight -= bytes;
        perKey.computeIfPresent(bucket, (key, held) -> held - bytes == 0 ? null : held - bytes);
    }

    /** Opens an upload of key {@code bucket}; false (nothing opened) when the key already sends its most. */
    synchronized boolean tryOpenUpload(String bucket) {
        int open = uploads.getOrDefault(bucket, 0);
        if (open >= limits.maxUploadsPerKey()) {
            return false;
        }
        uploads.put(bucket, open + 1);
        return true;
    }

    synchronized void closeUpload(String bucket) {
        uploads.computeIfPresent(bucket, (key, open) -> open == 1 ? null : open - 1);
    }

    synchronized long inFlight() {
        return inFlight;
    }

    synchronized long inFlight(String bucket) {
        return perKey.getOrDefault(bucket, 0L);
    }

    synchronized int uploads(String bucket) {
        return uploads.getOrDefault(bucket, 0);
    }
}
