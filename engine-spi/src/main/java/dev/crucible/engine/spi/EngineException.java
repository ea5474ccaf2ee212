package dev.crucible.engine.spi;

import java.util.Objects;

/**
 * An engine failure with a typed reason and a message that names what is at fault (the architecture, the dtype and
 * tensor, the missing file). Unchecked, like the hf-format errors it often wraps.
 *
 * <p>{@link Reason#RUNTIME_UNAVAILABLE} means the engine itself is unusable (fatal: it also shows in
 * {@link EngineProvider#health()}); every other reason fails only the model load or the batch at hand, and the engine
 * stays usable. Callers report the message as it is.
 */
public final class EngineException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why an engine operation failed. */
    public enum Reason {
        /** The engine lacks the {@link Capability} the operation needs (callers should have checked first). */
        NOT_CAPABLE,
        /** The model's architecture is one this engine does not run; the message names it. */
        UNSUPPORTED_ARCHITECTURE,
        /** A weight's dtype is one this engine cannot load; the message names the dtype and the tensor. */
        UNSUPPORTED_DTYPE,
        /** The model folder is unreadable or inconsistent: a missing tensor, a wrong shape, a corrupt file. */
        INVALID_MODEL,
        /** The engine's native runtime cannot be loaded or started: the engine is unhealthy. */
        RUNTIME_UNAVAILABLE,
        /** A forward pass failed inside the runtime (for example out of memory); the batch's caches are unchanged. */
        FORWARD_FAILED
    }

    private final Reason reason;

    /** A failure of the given reason; {@code message} names what is at fault. */
    public EngineException(Reason reason, String message) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** A failure of the given reason caused by a lower-level error. */
    public EngineException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** Why it failed; never null. */
    public Reason reason() {
        return reason;
    }
}
