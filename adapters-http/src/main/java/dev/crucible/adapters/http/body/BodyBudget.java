package dev.crucible.adapters.http.body;

import jakarta.inject.Singleton;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The body bytes that requests have in flight, bounded by {@code crucible.body.max-in-flight-bytes}. A request
 * reserves its body's size before the body is read and gives it back when its response is done. One request is
 * always admitted when nothing else is in flight, so a single body up to its route's limit can always be sent.
 */
@Singleton
final class BodyBudget {

    private final long max;
    private final AtomicLong inFlight = new AtomicLong();

    BodyBudget(BodyLimits limits) {
        this.max = limits.maxInFlightBytes();
    }

    /** Reserves {@code bytes}; false (nothing reserved) when that would pass the bound. */
    boolean tryReserve(long bytes) {
        while (true) {
            long now = inFlight.get();
            if (now > 0 && now + bytes > max) {
                return false;
            }
            if (inFlight.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    void release(long bytes) {
        inFlight.addAndGet(-bytes);
    }

    long inFlight() {
        return inFlight.get();
    }
}
