package dev.crucible.application.primitives;

import java.time.Duration;
import java.util.OptionalDouble;

/**
 * The bounds of the training primitives.
 *
 * @param longPoll         the longest a {@code retrieve_future} waits before answering "try again"
 * @param maxDatums        the most datums one {@code forward_backward} may carry (more: 413)
 * @param maxLoraRank      the highest LoRA rank {@code create_model} takes
 * @param microBatchTokens at most this many tokens go through the model at once; a larger call accumulates
 * @param maxSamples       the most {@code num_samples} of one {@code asample}
 * @param maxSampleTokens  the most {@code max_tokens} of one {@code asample}
 * @param maxSamplesInFlight the most {@code asample} calls one key may have unfinished (more: 429)
 * @param maxOperationsInFlight the most training operations ({@code forward_backward}, {@code optim_step}, saves,
 *                         ...) one key may have accepted and not yet finished, over all its runs (more: 429)
 * @param maxLogprobDrift  a {@code forward_backward} with an RL loss fails, before it accumulates anything, when the
 *                         mean {@code |trainer - sampler|} log-probability over its trained positions is above this
 *                         (nats); empty: none fails
 */
public record PrimitiveLimits(Duration longPoll, int maxDatums, int maxLoraRank, int microBatchTokens, int maxSamples,
        int maxSampleTokens, int maxSamplesInFlight, int maxOperationsInFlight, OptionalDouble maxLogprobDrift) {

    public PrimitiveLimits {
        if (maxLogprobDrift == null || maxLogprobDrift.isPresent() && !(maxLogprobDrift.getAsDouble() >= 0)) {
            throw new IllegalArgumentException("max logprob drift must be empty or a number >= 0, got "
                    + maxLogprobDrift);
        }
        if (longPoll == null || longPoll.isNegative() || maxDatums < 1 || maxLoraRank < 1 || microBatchTokens < 1
                || maxSamples < 1 || maxSampleTokens < 1 || maxSamplesInFlight < 1 || maxOperationsInFlight < 1) {
            throw new IllegalArgumentException("primitive limits must be positive");
        }
    }
}
