package dev.crucible.runtime.generation;

import dev.crucible.runtime.generation.logprobs.PositionLogprobs;
import dev.crucible.runtime.generation.stopping.Finish;
import java.util.List;
import java.util.Objects;

/**
 * One finished sequence.
 *
 * @param index    which of the request's {@code n} sequences, from 0
 * @param tokenIds every generated id, including a final EOS or stop token
 * @param text     the detokenized output, cut at a stop string, without a final EOS/stop token's text unless
 *                 {@code include_stop_str_in_output}
 * @param logprobs one entry per generated token when logprobs were asked for, else empty
 */
public record SequenceOutput(int index, List<Integer> tokenIds, String text, List<PositionLogprobs> logprobs,
        Finish finish) {

    /** Rejects nulls; copies the lists. */
    public SequenceOutput {
        tokenIds = List.copyOf(tokenIds);
        Objects.requireNonNull(text, "text");
        logprobs = List.copyOf(logprobs);
        Objects.requireNonNull(finish, "finish");
    }
}
