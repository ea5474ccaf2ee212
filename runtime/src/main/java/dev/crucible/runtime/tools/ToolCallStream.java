package dev.crucible.runtime.tools;

/**
 * Splits one choice's streamed text into content and tool-call pieces as it arrives. One per choice; not
 * thread-safe (the generator calls it from one thread, in order).
 */
public interface ToolCallStream {

    /**
     * Takes the next text delta; returns what to stream now. Text that may still turn out to start a tool call is
     * held back until it is decided or {@code finished}.
     */
    ToolStreamDelta next(String text, boolean finished);

    /** Whether any tool-call piece was streamed. */
    boolean calledTools();
}
