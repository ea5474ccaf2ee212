package dev.crucible.runtime.generation;

/**
 * How a {@link Generator} schedules.
 *
 * @param maxModelLen        the context length (prompt plus output), at most the model's
 *                           {@code max_position_embeddings}
 * @param prefillChunkTokens the most prompt tokens of one sequence forwarded in one step
 * @param maxBatchSequences  the most sequences decoded together; a request whose {@code n} exceeds it still runs,
 *                           alone
 * @param maxWaitingRequests the most requests waiting to be admitted; one more is refused as overloaded
 */
public record GeneratorOptions(int maxModelLen, int prefillChunkTokens, int maxBatchSequences,
        int maxWaitingRequests) {

    /** Waiting requests when no bound is given: two full default batches. */
    public static final int DEFAULT_MAX_WAITING_REQUESTS = 128;

    /** Rejects non-positive values. */
    public GeneratorOptions {
        if (maxModelLen < 1 || prefillChunkTokens < 1 || maxBatchSequences < 1 || maxWaitingRequests < 1) {
            throw new IllegalArgumentException("generator options must be positive, got maxModelLen=" + maxModelLen
                    + ", prefillChunkTokens=" + prefillChunkTokens + ", maxBatchSequences=" + maxBatchSequences
                    + ", maxWaitingRequests=" + maxWaitingRequests);
        }
    }

    /** Options with {@value #DEFAULT_MAX_WAITING_REQUESTS} waiting requests at most. */
    public GeneratorOptions(int maxModelLen, int prefillChunkTokens, int maxBatchSequences) {
        this(maxModelLen, prefillChunkTokens, maxBatchSequences, DEFAULT_MAX_WAITING_REQUESTS);
    }
}
