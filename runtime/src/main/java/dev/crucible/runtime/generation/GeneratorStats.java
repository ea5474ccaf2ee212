package dev.crucible.runtime.generation;

import dev.crucible.runtime.generation.prefix.PrefixCacheSnapshot;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters behind {@link GeneratorSnapshot}, and the retry hint given with an overload refusal: an exponentially
 * weighted mean of recent waits (weight 1/8 for the newest, as TCP's smoothed round-trip time), or the oldest
 * waiter's age when longer, between one second and a minute. Thread-safe: the scheduling thread writes, anyone reads.
 */
final class GeneratorStats {

    private static final long MIN_RETRY_NANOS = Duration.ofSeconds(1).toNanos();
    private static final long MAX_RETRY_NANOS = Duration.ofMinutes(1).toNanos();

    final LongAdder admitted = new LongAdder();
    final LongAdder refused = new LongAdder();
    final LongAdder cancelRequested = new LongAdder();
    final LongAdder cancelledWaiting = new LongAdder();
    final LongAdder aborted = new LongAdder();
    final LongAdder forwards = new LongAdder();
    final LongAdder generatedTokens = new LongAdder();
    final LongAdder prefillTokens = new LongAdder();
    private final LongAdder totalWaitNanos = new LongAdder();
    private final AtomicLong maxWaitNanos = new AtomicLong();
    private final AtomicLong smoothedWaitNanos = new AtomicLong();
    private volatile int running;
    private volatile int runningSequences;

    void admittedAfter(long waitNanos) {
        admitted.increment();
        totalWaitNanos.add(waitNanos);
        maxWaitNanos.accumulateAndGet(waitNanos, Math::max);
        smoothedWaitNanos.updateAndGet(smoothed -> smoothed + (waitNanos - smoothed) / 8);
    }

    void running(int requests, int sequences) {
        running = requests;
        runningSequences = sequences;
    }

    /** When a refused request may try again: the smoothed wait or {@code oldestWaiting}, the longer, clamped. */
    Duration retryAfter(Duration oldestWaiting) {
        long estimate = Math.max(smoothedWaitNanos.get(), oldestWaiting.toNanos());
        return Duration.ofNanos(Math.clamp(estimate, MIN_RETRY_NANOS, MAX_RETRY_NANOS));
    }

    GeneratorSnapshot snapshot(int waiting, int maxWaiting, Duration oldestWaiting, PrefixCacheSnapshot prefix) {
        return new GeneratorSnapshot(waiting, maxWaiting, running, runningSequences, admitted.sum(), refused.sum(),
                cancelRequested.sum(), cancelledWaiting.sum(), aborted.sum(), forwards.sum(), generatedTokens.sum(),
                Duration.ofNanos(totalWaitNanos.sum()), Duration.ofNanos(maxWaitNanos.get()), oldestWaiting,
                prefillTokens.sum(), prefix);
    }
}
