package dev.crucible.runtime.generation;

import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.hf.tokenizer.Tokenizer;
import dev.crucible.runtime.generation.prefix.PrefixCache;
import dev.crucible.runtime.generation.stopping.EndOfSequence;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.function.LongSupplier;

/**
 * The generator's loop, run on its one thread: each turn ends the requests cancelled while waiting and admits the
 * ones that fit ({@link Admission}), then runs one batched step over the running requests ({@link BatchStep}), whose
 * prompts are shared as {@link PrefillSharing} decides. Once the loop has had nothing to run for the options'
 * {@code releaseIdleAfter}, it asks the runner to give back the memory the last burst grew it to.
 *
 * <p>Failures: whatever a turn throws outside the step's own handling, {@link Error}s included, fails every running
 * request and the loop goes on; once {@link StepFailures} says the engine is broken, the loop fails every running and
 * waiting request and stops, so the model can be reloaded.
 */
final class Scheduler implements Runnable {

    private final ModelRunner runner;
    private final GeneratorOptions options;
    private final WaitingQueue waiting;
    private final GeneratorStats stats;
    private final PrefixCache prefixCache;
    private final StepFailures failures;
    /** The admitted requests, in admission order; read and written by this loop's parts on its thread only. */
    private final List<RequestState> running = new ArrayList<>();
    private final Admission admission;
    private final BatchStep step;
    /** When the loop last had something to run, for releasing idle memory; 0 once released. */
    private long busyNanos = System.nanoTime();
    private volatile boolean closing;

    /** @param clock the nanosecond clock the forwards are timed by ({@link System#nanoTime()} but in tests) */
    Scheduler(ModelRunner runner, Tokenizer tokenizer, EndOfSequence eos, GeneratorOptions options,
            WaitingQueue waiting, Queue<RequestState> cancelledWaiting, GeneratorStats stats,
            PrefixCache prefixCache, StepFailures failures, LongSupplier clock) {
        this.runner = runner;
        this.options = options;
        this.waiting = waiting;
        this.stats = stats;
        this.prefixCache = prefixCache;
        this.failures = failures;
        PrefillSharing sharing = new PrefillSharing(runner, prefixCache, stats, running);
        this.admission = new Admission(runner, tokenizer, eos, options, waiting, cancelledWaiting, stats, sharing,
                running);
        this.step = new BatchStep(runner, options, stats, sharing, failures, clock, running);
    }

    void close() {
        closing = true;
    }

    @Override
    public void run() {
        try {
            while (!closing && failures.broken() == null) {
                try {
                    admission.endCancelledWaiting();
                    admission.admit();
                    showRunning();
                    if (!running.isEmpty()) {
                        step.run();
                        showRunning();
                        busyNanos = System.nanoTime();
                    } else {
                        releaseIfIdle();
                    }
                } catch (InterruptedException e) {
                    throw e;
                } catch (Throwable e) {
                    // whatever the step was doing when it broke, the requests it held end, and the loop goes on
                    failures.failed(e);
                    failRunning(e);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            // also when a Throwable escaped the handling above: nothing admitted or waiting is left to hang
            end();
        }
    }

    /**
     * Asks the runner once to give back the memory it grew to, when the loop has had nothing to run for
     * {@code releaseIdleAfter}; again only after it has run something since.
     */
    private void releaseIfIdle() {
        long after = options.releaseIdleAfter().toNanos();
        if (after <= 0 || busyNanos == 0 || System.nanoTime() - busyNanos < after) {
            return;
        }
        busyNanos = 0;
        runner.releaseIdleMemory();
    }

    /** Fails what is left when the loop ends: running requests, and waiting ones unless the generator is closing. */
    private void end() {
        String broken = failures.broken();
        RuntimeException end = closing ? new IllegalStateException("the generator was closed")
                : GenerationFailure.stopped(broken == null ? "its thread failed" : broken);
        failRunning(end);
        if (!closing) {
            // the generator stays open until its owner replaces it; meanwhile no request may wait for nothing
            waiting.drain().forEach(r -> r.fail(end));
        }
        admission.close();
        stats.running(0, 0);
        admission.endCancelledWaiting();
        prefixCache.clear();
    }

    /** Fails every running request with {@code failure}, each on its own, and forgets them. */
    private void failRunning(Throwable failure) {
        for (RequestState request : running) {
            try {
                request.fail(failure);
            } catch (Throwable ignored) {
                // fail() already guards the listener and the caches; nothing else can be done for this request
            }
        }
        running.clear();
    }

    private void showRunning() {
        stats.running(running.size(), running.stream().mapToInt(RequestState::n).sum());
    }
}
