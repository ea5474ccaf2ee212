package dev.crucible.runtime.generation;

import dev.crucible.runtime.generation.prefix.PrefixCacheSnapshot;
import java.time.Duration;

/**
 * A read-only view of one generator's load, for metrics and health: counts since start and the queue now. Each field
 * is read on its own, so a snapshot taken while requests move may be off by the requests in motion.
 *
 * @param waiting requests waiting to be admitted now
 * @param maxWaiting the bound on {@code waiting}; one more request is refused as overloaded
 * @param running requests admitted and generating now
 * @param runningSequences their sequences ({@code n} each)
 * @param admitted requests admitted since start
 * @param refused requests refused since start because the waiting queue was full
 * @param cancelRequested requests whose cancellation was asked for since start (a client went away), counted at once,
 *                        whether they were waiting or running
 * @param cancelledWaiting requests cancelled (their client went away) while they waited, never run
 * @param aborted requests cancelled while they ran, their sequences ending with {@code abort}
 * @param forwards batched forward calls since start
 * @param generatedTokens tokens sampled since start, over all sequences
 * @param totalWait the summed time admitted requests waited (with {@code admitted}, a mean wait)
 * @param maxWait the longest time an admitted request waited
 * @param oldestWaiting how long the longest-waiting request has waited so far; zero when none waits
 * @param prefillTokens prompt tokens forwarded through the model since start: not those restored from the prefix
 *                      cache, nor the prompts the {@code n - 1} other sequences of a request copy from the first
 * @param prefixCache the prefix cache's counters and what it holds
 */
public record GeneratorSnapshot(int waiting, int maxWaiting, int running, int runningSequences, long admitted,
        long refused, long cancelRequested, long cancelledWaiting, long aborted, long forwards, long generatedTokens,
        Duration totalWait, Duration maxWait, Duration oldestWaiting, long prefillTokens,
        PrefixCacheSnapshot prefixCache) {
}
