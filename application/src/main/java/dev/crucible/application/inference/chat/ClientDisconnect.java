package dev.crucible.application.inference.chat;

/**
 * Where a running completion hears that its client went away, so that nobody generates for a closed connection.
 * The HTTP adapter watches its connection; {@link #NEVER} is for callers that cannot go away.
 */
@FunctionalInterface
public interface ClientDisconnect {

    ClientDisconnect NEVER = stop -> () -> { };

    /**
     * Runs {@code stop} when the client goes away (at once when it has gone already), on any thread.
     *
     * @return stops watching; called once the completion has ended, so a kept-alive connection collects no watchers
     */
    Runnable watch(Runnable stop);
}
