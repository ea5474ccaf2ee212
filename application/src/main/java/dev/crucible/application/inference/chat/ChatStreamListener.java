package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.chat.answer.ChatDelta;
import dev.crucible.application.inference.chat.answer.ChatStart;
import dev.crucible.application.inference.chat.answer.ChatUsage;

/**
 * Hears a streaming completion as typed events: {@link #onStart} once, then deltas, then exactly one of
 * {@link #onComplete} or {@link #onFailure}. Called on one thread at a time (the generator's after {@code onStart}),
 * so an implementation needs no locking; it returns at once. A delta that throws fails the request.
 */
public interface ChatStreamListener {

    /** The request is admitted and about to generate: what every chunk reports. Called on the caller's thread. */
    void onStart(ChatStart start);

    /** A step of one choice: text or tool-call pieces, its tokens and logprobs, and its finish on its last delta. */
    void onDelta(ChatDelta delta);

    /** Every choice finished; {@code usage} counts the whole completion. */
    void onComplete(ChatUsage usage);

    /**
     * Generation failed: the stream ends with an error. {@code failure} is a {@code RefusalException} saying what the
     * client should hear (a 503 when the engine failed, the request's own fault otherwise), else a bug.
     */
    void onFailure(RuntimeException failure);
}
