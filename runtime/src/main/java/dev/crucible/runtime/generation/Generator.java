package dev.crucible.runtime.generation;

import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.hf.tokenizer.Tokenizer;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.runtime.generation.prefix.PrefixCache;
import dev.crucible.runtime.generation.stopping.EndOfSequence;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.LongSupplier;

/**
 * Generates text for tokenized prompts with one model, batching every running sequence of every request into one
 * {@link ModelRunner#forward} call per step on its own thread (policy in {@code Admission} and {@code BatchStep}:
 * priority order, chunked prefill, continuous batching). Stops as vLLM does: EOS, stop token ids, stop strings,
 * {@code max_tokens}, the context length, repetition detection. At most {@code options.maxWaitingRequests()}
 * requests wait to be admitted; one more is refused as overloaded, with a hint of when to retry.
 * {@link #snapshot()} shows the load.
 *
 * <p>Threading: thread-safe; {@link #submit} may be called from any thread and returns at once. Listeners are called
 * on the generator's thread. Ownership: the caller owns the runner and tokenizer and closes them after this
 * generator; {@link #close()} stops the thread and fails unfinished requests. Errors: refusals the user can cause (a
 * prompt too long for the context, token ids outside the vocabulary) are values; engine failures, {@link Error}s
 * included, fail the requests of the batch through their listeners and handles (an {@code Error} as a
 * {@link GenerationFailure}) and the loop goes on, unless the engine fails step after step ({@link #failure()}).
 */
public final class Generator implements AutoCloseable {

    /** When a request refused by a failed generator may try again: about as long as a reload of a small model. */
    private static final Duration RELOAD_RETRY = Duration.ofSeconds(2);

    private final ModelRunner runner;
    private final WaitingQueue waiting;
    private final Queue<RequestState> cancelledWaiting = new ConcurrentLinkedQueue<>();
    private final GeneratorStats stats = new GeneratorStats();
    private final StepFailures failures = new StepFailures();
    private final GeneratorOptions options;
    private final PrefixCache prefixCache;
    private final Scheduler scheduler;
    private final Thread thread;
    private volatile boolean closed;

    private Generator(ModelRunner runner, Tokenizer tokenizer, EndOfSequence eos, GeneratorOptions options,
            LongSupplier clock) {
        this.runner = runner;
        this.options = options;
        this.waiting = new WaitingQueue(options.maxWaitingRequests());
        this.prefixCache = new PrefixCache(runner, options.prefixCacheTokens(), PrefixCache.MAX_PREFIXES);
        this.scheduler = new Scheduler(runner, tokenizer, eos, options, waiting, cancelledWaiting, stats, prefixCache,
                failures, clock);
        this.thread = Thread.ofPlatform().name("crucible-generation").daemon(true).unstarted(scheduler);
    }

    /**
     * A running generator. {@code options.maxModelLen()} must not exceed the model's {@code max_position_embeddings}
     * (the runner's {@code newCache} rejects larger caches, which would fail each request that needs one).
     */
    public static Generator start(ModelRunner runner, Tokenizer tokenizer, EndOfSequence eos,
            GeneratorOptions options) {
        return start(runner, tokenizer, eos, options, System::nanoTime);
    }

    /** As {@link #start(ModelRunner, Tokenizer, EndOfSequence, GeneratorOptions)}, timing forwards by {@code clock}. */
    static Generator start(ModelRunner runner, Tokenizer tokenizer, EndOfSequence eos, GeneratorOptions options,
            LongSupplier clock) {
        Objects.requireNonNull(runner, "runner");
        Objects.requireNonNull(tokenizer, "tokenizer");
        Objects.requireNonNull(eos, "eos");
        Objects.requireNonNull(options, "options");
        Generator generator = new Generator(runner, tokenizer, eos, options, clock);
        generator.thread.start();
        return generator;
    }

    /**
     * Queues a request. Refused (with vLLM's messages) when its {@code n} exceeds the batch
     * ({@link #maxBatchSequences()}), when the prompt and {@code max_tokens} do not fit the context,
     * or a sampling parameter names a token outside the model's vocabulary; refused as overloaded, with a retry hint,
     * when {@code maxWaitingRequests} requests wait already; refused as not ready once the generator has failed
     * ({@link #failure()}) or is closed (its model is being reloaded or shut down).
     *
     * @throws IllegalArgumentException for a prompt token outside the vocabulary (a tokenizer bug, not the user's)
     */
    public Outcome<GenerationHandle> submit(GenerationRequest request, GenerationListener listener) {
        Objects.requireNonNull(listener, "listener");
        int vocab = runner.vocabSize();
        int[] prompt = request.promptTokenIds();
        for (int id : prompt) {
            if (id < 0 || id >= vocab) {
                throw new IllegalArgumentException("prompt token id " + id + " is outside [0, " + vocab + ")");
            }
        }
        int length = options.maxModelLen();
        int requested = request.params().maxTokens() == Integer.MAX_VALUE ? 0 : request.params().maxTokens();
        if ((long) prompt.length + requested > length) {
            return Outcome.refused(Refusal.invalid("input_tokens", "You passed " + prompt.length + " input tokens "
                    + "and requested " + requested + " output tokens. However, the model's context length is only "
                    + length + " tokens, resulting in a maximum input length of " + (length - requested)
                    + " tokens. Please reduce the length of the input prompt."));
        }
        if (prompt.length >= length) {
            return Outcome.refused(Refusal.invalid("max_tokens", "max_tokens must be at least 1, got 0."));
        }
        int n = request.params().n();
        if (n > options.maxBatchSequences()) {
            // every sequence of a request runs at once, each with its own cache: past the batch it would hold more
            // caches than the engine ever decodes together
            return Outcome.refused(Refusal.invalid("n", "n must be at most " + options.maxBatchSequences()
                    + ", got " + n + ": the model decodes at most " + options.maxBatchSequences()
                    + " sequences together."));
        }
        return request.params().checkVocabulary(vocab).then(params -> enqueue(request, listener));
    }

    /** The most sequences decoded together, and so the largest {@code n} a request may ask for. */
    public int maxBatchSequences() {
        return options.maxBatchSequences();
    }

    /**
     * Why this generator no longer serves, or empty while it does (and once closed): its loop stopped because the
     * engine failed {@value StepFailures#MAX_FAILED_STEPS} steps in a row, or its thread ended. A generator that has
     * failed refuses new requests as not ready; the owner replaces it (reloading the model) and closes it.
     * Thread-safe.
     */
    public Optional<String> failure() {
        if (closed) {
            return Optional.empty();
        }
        String broken = failures.broken();
        if (broken != null) {
            return Optional.of("its generation loop stopped: " + broken);
        }
        return thread.isAlive() ? Optional.empty() : Optional.of("its generation thread has ended");
    }

    /** The load now: queue depth, running requests, waits and counts since start. Thread-safe, never blocks long. */
    public GeneratorSnapshot snapshot() {
        return stats.snapshot(waiting.size(), options.maxWaitingRequests(), oldestWait(), prefixCache.snapshot());
    }

    /**
     * When a request refused as overloaded may try again: about as long as requests have lately waited, or as the
     * longest-waiting request has waited so far if that is longer (waits grow before any admission shows them).
     */
    public Duration retryAfter() {
        return stats.retryAfter(oldestWait());
    }

    /** How long the longest-waiting request has waited; zero when none waits. */
    private Duration oldestWait() {
        long now = System.nanoTime();
        return waiting.oldestEnqueuedNanos().map(t -> Duration.ofNanos(Math.max(0, now - t))).orElse(Duration.ZERO);
    }

    /** Submits and waits; the result or the refusal. Engine failures are rethrown as they were. */
    public Outcome<GenerationResult> generate(GenerationRequest request) {
        return submit(request, GenerationListener.NONE).map(handle -> {
            try {
                return handle.result().join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
        });
    }

    private synchronized Outcome<GenerationHandle> enqueue(GenerationRequest request, GenerationListener listener) {
        if (closed || failure().isPresent()) {
            // a request that found this model's generator as it was being replaced (reloaded) or shut down
            return Outcome.refused(new Refusal(Refusal.Reason.NOT_READY, "The model is being reloaded or shut "
                    + "down. Please retry shortly.", null, Optional.of(RELOAD_RETRY)));
        }
        GenerationHandle handle = new GenerationHandle();
        RequestState state = new RequestState(request, listener, handle, System.nanoTime());
        handle.onCancel(() -> {
            stats.cancelRequested.increment();
            if (waiting.remove(state)) {
                cancelledWaiting.add(state);
            }
        });
        if (!waiting.offer(state)) {
            stats.refused.increment();
            return Outcome.refused(Refusal.overloaded("The server is busy: " + options.maxWaitingRequests()
                    + " requests are already waiting for this model. Please retry later.", retryAfter()));
        }
        return Outcome.done(handle);
    }

    /** Stops the thread after its current step and fails every unfinished request; idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        scheduler.close();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (RequestState left : waiting.drain()) {
            left.fail(new IllegalStateException("the generator was closed"));
        }
        // cancelled after the loop's last look: the thread has ended, so ending them here keeps listeners in order
        for (RequestState left = cancelledWaiting.poll(); left != null; left = cancelledWaiting.poll()) {
            left.abortWaiting();
        }
    }
}
