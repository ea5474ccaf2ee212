package dev.crucible.application.primitives;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs one training run's operations one at a time, on the run's own worker thread, lowest {@code seq_id} first among
 * those queued. Clients submit in order and wait for each request id before the next, so this is the submission order;
 * an operation queued late with a lower seq_id still goes before the higher ones waiting. Each task handles its own
 * failures (see {@link OperationExecution}). Thread-safe.
 */
final class RunSequencer implements AutoCloseable {

    private final TreeMap<Long, Runnable> queued = new TreeMap<>();
    private final ExecutorService worker;
    private boolean draining;

    RunSequencer(String name) {
        this.worker = Executors.newSingleThreadExecutor(Thread.ofPlatform().name(name).daemon().factory());
    }

    synchronized void submit(long seqId, Runnable task) {
        queued.put(seqId, task);
        if (!draining) {
            draining = true;
            worker.execute(this::drain);
        }
    }

    private void drain() {
        while (true) {
            Runnable next;
            synchronized (this) {
                Map.Entry<Long, Runnable> first = queued.pollFirstEntry();
                if (first == null) {
                    draining = false;
                    return;
                }
                next = first.getValue();
            }
            next.run();
        }
    }

    /** Stops taking work once what is queued has run. */
    @Override
    public void close() {
        worker.shutdown();
    }
}
