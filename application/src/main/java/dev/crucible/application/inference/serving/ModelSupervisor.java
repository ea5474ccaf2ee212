package dev.crucible.application.inference.serving;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Restarts the models whose generation stopped. Every {@code interval} it asks the served models which no longer
 * serve (a generator whose engine failed step after step, or whose thread ended) and reloads each in place, dropping
 * the adapters loaded into its old runner; a reload that fails is logged and tried again next round. Until then the
 * model answers 503 and {@code /v1/health} names it. Runs on its own daemon thread; thread-safe.
 */
public final class ModelSupervisor implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ModelSupervisor.class.getName());

    private final ServedModels models;
    private final AdapterCache adapters;
    private final Duration interval;
    private final Thread thread;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final AtomicLong restarts = new AtomicLong();

    /**
     * @param interval how often the models are checked; at least a millisecond
     */
    public ModelSupervisor(ServedModels models, AdapterCache adapters, Duration interval) {
        this.models = Objects.requireNonNull(models, "models");
        this.adapters = Objects.requireNonNull(adapters, "adapters");
        this.interval = Objects.requireNonNull(interval, "interval");
        if (interval.toMillis() < 1) {
            throw new IllegalArgumentException("interval must be at least 1 ms, got " + interval);
        }
        this.thread = Thread.ofPlatform().name("crucible-model-supervisor").daemon(true).unstarted(this::loop);
    }

    /** Starts checking; a server without a reloader for its models only logs their failures. */
    public void start() {
        thread.start();
    }

    /** Models reloaded since start. */
    public long restarts() {
        return restarts.get();
    }

    private void loop() {
        try {
            while (!stop.await(interval.toNanos(), TimeUnit.NANOSECONDS)) {
                try {
                    checkOnce();
                } catch (Throwable e) {
                    // the supervisor itself must outlive whatever a reload throws
                    LOG.log(Level.SEVERE, "checking the served models failed; trying again", e);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One round: reloads each model that no longer serves. Called by the loop; public for tests. */
    public void checkOnce() {
        for (Map.Entry<String, String> failed : models.failures().entrySet()) {
            String name = failed.getKey();
            if (!models.reloadable()) {
                LOG.severe("model " + name + " no longer serves (" + failed.getValue() + ") and cannot be reloaded");
                continue;
            }
            LOG.warning("model " + name + " no longer serves (" + failed.getValue() + "); reloading it");
            long start = System.nanoTime();
            try {
                models.reload(name, () -> adapters.forget(name));
                restarts.incrementAndGet();
                LOG.info("model " + name + " reloaded in " + (System.nanoTime() - start) / 1_000_000 + " ms");
            } catch (Throwable e) {
                LOG.log(Level.SEVERE, "reloading model " + name + " failed; trying again in " + interval, e);
            }
        }
    }

    /** Stops checking and waits for a reload under way to end. */
    @Override
    public void close() {
        stop.countDown();
        if (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
