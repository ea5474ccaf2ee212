package dev.crucible.server.database;

import dev.crucible.kernel.lifecycle.ThreadStop;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a process this server runs alive: checks it every {@code interval} on a thread of its own and, when it has
 * died, starts it again, retrying with a doubling pause up to {@code maxPause} until it runs or the supervisor is
 * closed. Each death and each restart is logged; {@link #restarts()} counts the successful ones.
 */
final class Supervisor implements AutoCloseable {

    /** The supervised process. Both methods are called on the supervisor's thread only. */
    interface Supervised {

        /** Whether it still runs; cheap, called every interval. */
        boolean alive();

        /** Starts it again after it died; throws when it could not (the supervisor tries again later). */
        void restart() throws Exception;
    }

    private static final Logger LOG = LoggerFactory.getLogger(Supervisor.class);

    private final String name;
    private final Supervised target;
    private final Duration interval;
    private final Duration maxPause;
    private final AtomicLong restarts = new AtomicLong();
    private final Thread thread;
    private volatile boolean closed;

    Supervisor(String name, Supervised target, Duration interval, Duration maxPause) {
        this.name = name;
        this.target = target;
        this.interval = interval;
        this.maxPause = maxPause;
        this.thread = Thread.ofPlatform().daemon().name("crucible-supervisor-" + name).unstarted(this::run);
    }

    Supervisor start() {
        thread.start();
        return this;
    }

    /** How many times the process was restarted after it died. */
    long restarts() {
        return restarts.get();
    }

    private void run() {
        try {
            while (!closed) {
                Thread.sleep(interval);
                if (!closed && !alive()) {
                    LOG.warn("The {} died; restarting it", name);
                    restartUntilRunning();
                }
            }
        } catch (InterruptedException e) {
            // closed
        } catch (Throwable t) {
            LOG.error("The supervisor of the {} stopped: it will not be restarted again", name, t);
        }
    }

    private boolean alive() {
        try {
            return target.alive();
        } catch (RuntimeException e) {
            LOG.warn("Cannot tell whether the {} runs: {}", name, e.toString());
            return true;
        }
    }

    private void restartUntilRunning() throws InterruptedException {
        long began = System.nanoTime();
        Duration pause = interval;
        for (int attempt = 1; !closed; attempt++) {
            try {
                target.restart();
                long n = restarts.incrementAndGet();
                LOG.info("Restarted the {} after {} ms ({} attempt(s); restart #{} of this process)", name,
                        (System.nanoTime() - began) / 1_000_000, attempt, n);
                return;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                LOG.warn("Cannot restart the {} yet (attempt {}): {}; trying again in {} ms", name, attempt,
                        e.getMessage(), pause.toMillis());
            }
            Thread.sleep(pause);
            pause = pause.multipliedBy(2).compareTo(maxPause) > 0 ? maxPause : pause.multipliedBy(2);
        }
    }

    /** Stops supervising, waiting for a restart in progress to end; the process itself is left as it is. */
    @Override
    public void close() {
        closed = true;
        ThreadStop.interruptAndJoin(thread, Duration.ofSeconds(30));
    }
}
