package dev.crucible.runtime.generation.stopping;

import java.util.Objects;
import java.util.Optional;

/**
 * How a sequence ended.
 *
 * @param stopReason empty where vLLM writes {@code stop_reason: null} (EOS, length, abort)
 */
public record Finish(FinishReason reason, Optional<StopReason> stopReason) {

    /** Rejects nulls. */
    public Finish {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(stopReason, "stopReason");
    }

    /** A finish without a stop reason. */
    public static Finish of(FinishReason reason) {
        return new Finish(reason, Optional.empty());
    }

    /** A finish with {@code stopReason}. */
    public static Finish of(FinishReason reason, StopReason stopReason) {
        return new Finish(reason, Optional.of(stopReason));
    }
}
