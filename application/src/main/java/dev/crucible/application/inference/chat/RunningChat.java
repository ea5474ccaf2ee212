package dev.crucible.application.inference.chat;

/** A streaming completion under way, which its caller may stop; stopping twice or after the end does nothing. */
@FunctionalInterface
public interface RunningChat {

    /** Stops generating; the listener then hears the aborted sequences end and the stream complete. */
    void cancel();
}
