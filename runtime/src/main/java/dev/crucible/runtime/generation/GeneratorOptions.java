package dev.crucible.runtime.generation;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link Generator} schedules.
 *
 * @param maxModelLen        the context length (prompt plus output), at most the model's
 *                           {@code max_position_embeddings}
 * @param prefillChunkTokens the most prompt tokens of one sequence forwarded in one step
 * @param maxBatchSequences  the most sequences decoded together, and the largest {@code n} a request may ask for
 * @param maxWaitingRequests the most requests waiting to be admitted; one more is refused as overloaded
 * @param prefixCacheTokens  the most prompt tokens the prefix cache holds for reuse by later requests (in at most
 *                           8 prefixes); 0 turns prefix caching off (the {@code n} sequences of
 *                           one request, and requests with the very same prompt, still share one prefill; requests
 *                           sharing only a prefix do not)
 * @param prefillBudget      the prompt tokens a step may forward while other sequences decode
 * @param releaseIdleAfter   how long the loop has had nothing to run before it asks the runner to give back the memory
 *                           its caches grew to ({@link dev.crucible.engine.spi.ModelRunner#releaseIdleMemory}); zero
 *                           or negative: never
 */
public record GeneratorOptions(int maxModelLen, int prefillChunkTokens, int maxBatchSequences,
        int maxWaitingRequests, int prefixCacheTokens, PrefillBudget prefillBudget, Duration releaseIdleAfter) {

    /** Waiting requests when no bound is given: two full default batches. */
    public static final int DEFAULT_MAX_WAITING_REQUESTS = 128;

    /** Prefix cache tokens when no bound is given: eight prompts of a thousand tokens or so. */
    public static final int DEFAULT_PREFIX_CACHE_TOKENS = 8192;

    /** Rejects non-positive values (a negative prefix cache budget), and a missing budget or idle time. */
    public GeneratorOptions {
        Objects.requireNonNull(prefillBudget, "prefillBudget");
        Objects.requireNonNull(releaseIdleAfter, "releaseIdleAfter");
        if (maxModelLen < 1 || prefillChunkTokens < 1 || maxBatchSequences < 1 || maxWaitingRequests < 1
                || prefixCacheTokens < 0) {
            throw new IllegalArgumentException("generator options must be positive, got maxModelLen=" + maxModelLen
                    + ", prefillChunkTokens=" + prefillChunkTokens + ", maxBatchSequences=" + maxBatchSequences
                    + ", maxWaitingRequests=" + maxWaitingRequests + ", prefixCacheTokens=" + prefixCacheTokens);
        }
    }

    /** Options with no prefill budget (a full chunk per step) and no release of idle memory. */
    public GeneratorOptions(int maxModelLen, int prefillChunkTokens, int maxBatchSequences, int maxWaitingRequests,
            int prefixCacheTokens) {
        this(maxModelLen, prefillChunkTokens, maxBatchSequences, maxWaitingRequests, prefixCacheTokens,
                PrefillBudget.UNBOUNDED, Duration.ZERO);
    }

    /** Options with the default prefix cache budget, {@value #DEFAULT_PREFIX_CACHE_TOKENS} tokens. */
    public GeneratorOptions(int maxModelLen, int prefillChunkTokens, int maxBatchSequences, int maxWaitingRequests) {
        this(maxModelLen, prefillChunkTokens, maxBatchSequences, maxWaitingRequests, DEFAULT_PREFIX_CACHE_TOKENS);
    }

    /** Options with {@value #DEFAULT_MAX_WAITING_REQUESTS} waiting requests at most. */
    public GeneratorOptions(int maxModelLen, int prefillChunkTokens, int maxBatchSequences) {
        this(maxModelLen, prefillChunkTokens, maxBatchSequences, DEFAULT_MAX_WAITING_REQUESTS);
    }
}
