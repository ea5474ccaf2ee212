package dev.crucible.application.inference.chat.ask;

/**
 * Whether a chat request streams, and its {@code stream_options} (only allowed with {@code stream: true}).
 *
 * @param includeUsage         send a final usage chunk, false by default (vLLM main)
 * @param continuousUsageStats put usage on every chunk (only together with {@code includeUsage})
 */
public record ChatStreaming(boolean stream, boolean includeUsage, boolean continuousUsageStats) {

    /** Not streamed. */
    public static ChatStreaming defaults() {
        return new ChatStreaming(false, false, false);
    }
}
