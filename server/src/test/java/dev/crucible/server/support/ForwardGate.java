package dev.crucible.server.support;

/**
 * Holds the scripted model's forward passes while closed, so a test can keep the model busy and watch requests
 * queue behind it (active with {@code test.scripted-model}; open unless a test closes it).
 */
public final class ForwardGate {

    private boolean open = true;

    /** Makes every forward wait from the next one on. */
    public synchronized void close() {
        open = false;
    }

    /** Lets every waiting and later forward through. */
    public synchronized void open() {
        open = true;
        notifyAll();
    }

    /** Waits while closed (up to a minute, so a failing test cannot hang the build). */
    synchronized void pass() {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!open && System.nanoTime() < deadline) {
            try {
                wait(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
