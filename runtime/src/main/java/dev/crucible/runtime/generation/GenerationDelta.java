package dev.crucible.runtime.generation;

import dev.crucible.runtime.generation.logprobs.PositionLogprobs;
import dev.crucible.runtime.generation.stopping.Finish;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one sequence produced in one decoding step, for streaming. Per sequence, the concatenated {@code tokenIds},
 * {@code text} and {@code logprobs} of all deltas equal the final {@link SequenceOutput}'s.
 *
 * @param index    which of the request's {@code n} sequences, from 0
 * @param tokenIds the new token ids (one per step; none in an abort's closing delta)
 * @param text     the new text, possibly empty: incomplete UTF-8 and a possible stop-string prefix are held back
 * @param logprobs one entry per new token when logprobs were asked for, else empty
 * @param finish   present on the sequence's last delta
 */
public record GenerationDelta(int index, List<Integer> tokenIds, String text, List<PositionLogprobs> logprobs,
        Optional<Finish> finish) {

    /** Rejects nulls; copies the lists. */
    public GenerationDelta {
        tokenIds = List.copyOf(tokenIds);
        Objects.requireNonNull(text, "text");
        logprobs = List.copyOf(logprobs);
        Objects.requireNonNull(finish, "finish");
    }
}
