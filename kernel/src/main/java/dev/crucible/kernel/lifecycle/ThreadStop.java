package dev.crucible.kernel.lifecycle;

import java.time.Duration;

/**
 * How a component's {@code close()} ends the thread it owns once it has told the thread's loop to stop: interrupt it
 * (out of a sleep or a blocking wait) and wait a bounded while for it to end.
 */
public final class ThreadStop {

    private ThreadStop() {
    }

    /**
     * Interrupts {@code thread} and waits up to {@code patience} for it to end. A thread still running after that is
     * left to end on its own (callers make it a daemon). When the calling thread is interrupted while it waits, it
     * stops waiting and keeps its interrupt status set, so that its own caller sees it.
     *
     * @return whether {@code thread} has ended
     */
    public static boolean interruptAndJoin(Thread thread, Duration patience) {
        thread.interrupt();
        try {
            thread.join(patience);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }
}
