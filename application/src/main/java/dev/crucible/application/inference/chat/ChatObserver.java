package dev.crucible.application.inference.chat;

import java.time.Duration;

/**
 * What a chat completion tells about itself as it runs, for metrics: when its first token came and how it ended.
 * Called on the generator's thread: implementations return at once. {@link #NONE} tells no one.
 */
public interface ChatObserver {

    ChatObserver NONE = new ChatObserver() {
    };

    /** The first token of the request's first sequence came {@code afterArrival} after the request arrived. */
    default void firstToken(String model, Duration afterArrival) {
    }

    /**
     * The request ended: its prompt's tokens, how long it took from arrival, and why its first sequence ended
     * ({@code stop}, {@code length}, {@code abort}, ...). Generated tokens are the generator's to count.
     */
    default void finished(String model, int promptTokens, Duration afterArrival, String finishReason) {
    }
}
