package dev.crucible.adapters.http.tinker.proto;

import dev.crucible.application.primitives.ForwardBackwardInput;
import dev.crucible.kernel.invariant.NonNull;

/**
 * A {@code forward_backward} request as the SDK 0.25 sends it, read: which model, its place in the model's sequence,
 * and the pass itself ({@code forward_only} for a forward pass, which older SDKs send to {@code /api/v1/forward}).
 *
 * @param modelId the model's id as sent; empty when the body left it out (protobuf has no null)
 * @param seqId   the request's place in the model's sequence; 0 when the body left it out
 * @param input   the datums, loss function, its settings and whether to skip the backward pass
 */
public record ForwardBackwardRequest(String modelId, int seqId, ForwardBackwardInput input) {

    public ForwardBackwardRequest {
        NonNull.components(ForwardBackwardRequest.class, modelId, input);
    }
}
