package dev.crucible.application.primitives;

import java.time.Duration;

/**
 * The bounds of the training primitives.
 *
 * @param longPoll         the longest a {@code retrieve_future} waits before answering "try again"
 * @param maxDatums        the most datums one {@code forward_backward} may carry (more: 413)
 * @param maxLoraRank      the highest LoRA rank {@code create_model} takes
 * @param microBatchTokens at most this many tokens go through the model at once; a larger call accumulates
 */
public record PrimitiveLimits(Duration longPoll, int maxDatums, int maxLoraRank, int microBatchTokens) {

    public PrimitiveLimits {
        if (longPoll == null || longPoll.isNegative() || maxDatums < 1 || maxLoraRank < 1 || microBatchTokens < 1) {
            throw new IllegalArgumentException("primitive limits must be positive");
        }
    }
}
