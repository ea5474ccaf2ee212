package dev.crucible.application.inference.generation;

/**
 * How a {@link Generator} schedules.
 *
 * @param maxModelLen        the context length (prompt plus output), at most the model's
 *                           {@code max_position_embeddings}
 * @param prefillChunkTokens the most prompt tokens of one sequence forwarded in one step
 * @param maxBatchSequences  the most sequences decoded together; a request whose {@code n} exceeds it still runs,
 *                           alone
 */
public record GeneratorOptions(int maxModelLen, int prefillChunkTokens, int maxBatchSequences) {

    /** Rejects non-positive values. */
    public GeneratorOptions {
        if (maxModelLen < 1 || prefillChunkTokens < 1 || maxBatchSequences < 1) {
            throw new IllegalArgumentException("generator options must be positive, got maxModelLen=" + maxModelLen
                    + ", prefillChunkTokens=" + prefillChunkTokens + ", maxBatchSequences=" + maxBatchSequences);
        }
    }
}
