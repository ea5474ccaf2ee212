package dev.crucible.runtime.generation;

/**
 * A request failed because its model's generation failed, not because of what it asked: an {@link Error} on the
 * generation thread (an {@link OutOfMemoryError} while allocating a cache, say), which the scheduler survives by
 * failing the requests it touched, or its loop stopping because the engine broke. The error, if any, is the cause;
 * the message says only that generation failed, never what the error said.
 */
public final class GenerationFailure extends RuntimeException {

    private GenerationFailure(String message, Throwable cause) {
        super(message, cause);
    }

    /** {@code failure} as a request's failure: a runtime exception as it is, anything else wrapped. */
    static RuntimeException of(Throwable failure) {
        return failure instanceof RuntimeException runtime ? runtime
                : new GenerationFailure("the model's generation failed", failure);
    }

    /** The failure of the requests a broken loop leaves behind when it stops, {@code why} it gave up. */
    static GenerationFailure stopped(String why) {
        return new GenerationFailure("the model's generation stopped: " + why, null);
    }
}
