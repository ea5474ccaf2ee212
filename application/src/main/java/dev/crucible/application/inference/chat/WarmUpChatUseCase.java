package dev.crucible.application.inference.chat;

import java.util.List;
import java.util.function.Supplier;

/**
 * Runs, before the server serves, a few short chats along the way a request takes on every served model whose runner
 * warmed itself at load, so that the first client's request does not pay the first loading and interpretation of
 * that way's classes. On nobody's behalf: no caller, no key, no usage, no admission ticket, no stored completion, no
 * log line with content; its prompts share a prefix with no tenant's. A model whose runner did not warm up (a
 * scripted test engine) is left alone.
 */
public interface WarmUpChatUseCase {

    /**
     * Runs the warm-up chats and waits for them to end; never refuses, never throws for a model it cannot warm.
     *
     * @param listeners gives one listener per chat, which hears it as a streamed chat's listener would (the adapter
     *                  writes its chunks, and so warms its own writers)
     * @return the names of the models it warmed
     */
    List<String> warmUp(Supplier<ChatStreamListener> listeners);
}
