package dev.crucible.application.primitives;

import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * {@code asample}: samples continuations of a prompt with a sampling session's weights on the serving engine, as a
 * future. Refused (400) for bad settings or tokens, (404) for an unknown sampler, (429) past the samples a key may
 * have in flight, which the Tinker SDK takes as backpressure.
 */
public interface SampleUseCase {

    /**
     * @param sampler the sampling session's id
     * @param seqId   the request's place among the sampler's requests, when given (identical retries dedupe)
     */
    record Command(Caller caller, String sampler, OptionalLong seqId, int[] prompt, SampleSettings settings,
            String digest) {
    }

    Outcome<UUID> sample(Command command);
}
