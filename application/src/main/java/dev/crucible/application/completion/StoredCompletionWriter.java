package dev.crucible.application.completion;

import dev.crucible.domain.completion.StoredCompletion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * Keeps completions through a bounded in-memory queue that one thread drains into the store: it waits for the first
 * completion, takes whatever else is queued (up to {@code maxBatch}) and inserts it in one transaction, so a
 * completion is committed as soon as the write before it ends, and always within a second of being queued while the
 * database keeps up (a {@code kill -9} loses at most the last second). A full queue drops the completion (counted in
 * {@link #dropped()}, told to {@code onDropped}) instead of making the answer wait; a failed batch is retried one
 * completion at a time, and a completion whose write fails is dropped the same way; the thread goes on.
 * {@link #close()} stops taking completions and writes what is queued.
 */
public final class StoredCompletionWriter implements KeepCompletionUseCase, AutoCloseable {

    /** How long the thread waits for a first completion before looking at the stop flag again. */
    private static final long POLL_MILLIS = 200;

    private final StoredCompletionStore store;
    private final BlockingQueue<StoredCompletion> queue;
    private final int maxBatch;
    private final BiConsumer<Integer, String> onDropped;
    private final Thread thread;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong handled = new AtomicLong();
    private final AtomicLong queued = new AtomicLong();
    private final List<Waiter> waiters = new ArrayList<>();
    private volatile boolean stopping;

    private record Waiter(long count, CompletableFuture<Void> done) {
    }

    /**
     * @param capacity  completions the queue holds before it drops
     * @param maxBatch  completions per transaction at most
     * @param onDropped hears how many completions were dropped and why
     * @param threads   makes the writer's one thread
     */
    public StoredCompletionWriter(StoredCompletionStore store, int capacity, int maxBatch,
            BiConsumer<Integer, String> onDropped, ThreadFactory threads) {
        this.store = Objects.requireNonNull(store, "store");
        if (capacity < 1 || maxBatch < 1) {
            throw new IllegalArgumentException("capacity and maxBatch must be at least 1, got " + capacity + ", "
                    + maxBatch);
        }
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.maxBatch = maxBatch;
        this.onDropped = Objects.requireNonNull(onDropped, "onDropped");
        this.thread = threads.newThread(this::run);
        thread.start();
    }

    @Override
    public boolean keep(StoredCompletion completion) {
        Objects.requireNonNull(completion, "completion");
        if (stopping || !queue.offer(completion)) {
            dropped.incrementAndGet();
            onDropped.accept(1, stopping ? "the server is stopping" : "the queue is full");
            return false;
        }
        queued.incrementAndGet();
        return true;
    }

    /** Completions dropped since start. */
    public long dropped() {
        return dropped.get();
    }

    /** Completions committed since start. */
    public long written() {
        return written.get();
    }

    /** Completions waiting in the queue. */
    public int pending() {
        return queue.size();
    }

    /**
     * Completes once every completion queued so far has been written or dropped by the thread: the flush signal a
     * test or a shutdown waits on.
     */
    public CompletableFuture<Void> flushed() {
        synchronized (waiters) {
            long target = queued.get();
            if (handled.get() >= target) {
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> done = new CompletableFuture<>();
            waiters.add(new Waiter(target, done));
            return done;
        }
    }

    private void run() {
        List<StoredCompletion> batch = new ArrayList<>(maxBatch);
        while (!stopping || !queue.isEmpty()) {
            try {
                StoredCompletion first = queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, maxBatch - 1);
                write(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Throwable e) {
                // the loop's edge: a bug must not stop storing for every later completion
                dropped.addAndGet(batch.size());
                onDropped.accept(batch.size(), "the write failed: " + e);
            } finally {
                handled.addAndGet(batch.size());
                batch.clear();
                signal();
            }
        }
    }

    /** One transaction for the batch; if it fails, one per completion, so that only a bad one is dropped. */
    private void write(List<StoredCompletion> batch) {
        try {
            store.insertAll(List.copyOf(batch));
            written.addAndGet(batch.size());
        } catch (RuntimeException e) {
            if (batch.size() == 1) {
                dropped.incrementAndGet();
                onDropped.accept(1, "the write failed: " + e);
                return;
            }
            for (StoredCompletion completion : batch) {
                write(List.of(completion));
            }
        }
    }

    private void signal() {
        synchronized (waiters) {
            long done = handled.get();
            waiters.removeIf(w -> {
                if (done >= w.count()) {
                    w.done().complete(null);
                    return true;
                }
                return false;
            });
        }
    }

    /** Stops taking completions and waits up to {@code timeout} for the queued ones to be written. */
    public void close(Duration timeout) throws InterruptedException {
        stopping = true;
        thread.join(timeout);
        if (thread.isAlive()) {
            thread.interrupt();
            int left = queue.size();
            dropped.addAndGet(left);
            onDropped.accept(left, "still queued when the server stopped");
        }
    }

    /** {@link #close(Duration)} with ten seconds. */
    @Override
    public void close() throws InterruptedException {
        close(Duration.ofSeconds(10));
    }
}
