package dev.crucible.server.support;

/**
 * Holds the scripted model's forward passes while closed, so a test can keep the model busy and watch requests
 * queue behind it (active with {@code test.scripted-model}; open unless a test closes it). Its load gate likewise
 * holds the scripted engine's model loads (a reload after the model's generation stopped), so a test can watch the
 * server while the model is down.
 */
public final class ForwardGate {

    private final Gate forwards = new Gate();
    private final Gate loads = new Gate();

    /** The gate every forward pass goes through. */
    public Gate forwards() {
        return forwards;
    }

    /** The gate every model load goes through. */
    public Gate loads() {
        return loads;
    }

    /** One gate: open unless a test closes it. Thread-safe. */
    public static final class Gate {

        private boolean open = true;

        /** Makes every caller wait from the next one on. */
        public synchronized void close() {
            open = false;
        }

        /** Lets every waiting and later caller through. */
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
}
