package dev.crucible.runtime.generation;

/**
 * Receives a request's progress as it is generated; the HTTP adapter decides how to stream it.
 *
 * <p>Threading: every call comes from the generator's one scheduling thread, in order: for each sequence its deltas in
 * order (the last carries the finish), then {@link #onComplete} once, or {@link #onFailure} once instead. Deltas of
 * different sequences interleave. Implementations must return quickly (hand off to another thread to write to a
 * network), because every other request waits meanwhile. A listener that throws fails its own request.
 */
public interface GenerationListener {

    /** A listener that ignores everything. */
    GenerationListener NONE = new GenerationListener() {
    };

    /** New tokens and text of one sequence. */
    default void onDelta(GenerationDelta delta) {
    }

    /** All sequences finished; {@code result} equals the concatenated deltas. */
    default void onComplete(GenerationResult result) {
    }

    /**
     * The request failed (an engine failure, a throwing listener, the generator closing, or its loop stopping because
     * the engine broke); nothing follows. An {@link Error} thrown on the generator's thread arrives as a
     * {@link GenerationFailure} with the error as its cause.
     */
    default void onFailure(RuntimeException failure) {
    }
}
