package dev.crucible.runtime.generation;

import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.tokenizer.Tokenizer;
import dev.crucible.runtime.generation.logprobs.LogprobTexts;
import dev.crucible.runtime.generation.prefix.PrefixCache;
import dev.crucible.runtime.generation.prefix.PrefixScope;
import dev.crucible.runtime.generation.sampling.Sampler;
import dev.crucible.runtime.generation.stopping.EndOfSequence;
import dev.crucible.runtime.generation.stopping.StopStrings;
import dev.crucible.runtime.generation.stopping.TokenStops;
import dev.crucible.runtime.structured.ConstraintCursor;
import dev.crucible.runtime.structured.StructuredDecoding;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * The generator's loop, run on its one thread. Policy: requests wait in {@link WaitingQueue}'s order (lower priority
 * value first, then owners in turn, then arrival); the next in turn is admitted while the running sequences plus its
 * {@code n} fit {@code maxBatchSequences} (an idle loop always admits one), so nothing overtakes it. Requests
 * cancelled while waiting end here, on this thread, without running. Each step forwards every unfinished sequence
 * once, in one batched call: a prefilling sequence its next prompt chunk, a decoding one its last token; each sequence
 * whose prompt is complete then samples a token. While any sequence decodes, the prompt chunks of a step share the
 * options' {@link PrefillBudget} (fixed, or paced by {@link PrefillPacer} from the timed forwards, then one prompt
 * piece a step, its size from the pacer's cost model at that piece's position), so a long prompt arriving holds the
 * running streams up for a bounded part of each step rather than for a whole chunk; a prefilling sequence the budget
 * does not reach sits the step out. Each decoding step is traced at DEBUG (pieces, positions, predicted and measured
 * times). Once the loop has had nothing to run for the options'
 * {@code releaseIdleAfter}, it asks the runner to give back the memory the last burst grew it to.
 *
 * <p>Prefill is shared: the first of a request's {@code n} sequences starts from the longest prefix of its prompt
 * held by the {@link PrefixCache} (unless prompt logprobs are asked for, which need every position's logits) and
 * forwards only the rest; the other {@code n - 1} wait, then copy its whole prompt and sample their first token from
 * its last prompt logits, so a request costs one prefill. The first sequence's full prompt blocks then go to the
 * prefix cache for later requests of the same {@link PrefixScope}.
 *
 * <p>Requests share prefill with each other too. A request admitted while another of the same scope and the very same
 * prompt runs, as an RL client's group of rollouts or a burst of retries sends them, forwards nothing of it: each of
 * its sequences copies that request's prompt and samples its first token from that request's last prompt logits (a
 * running request keeps them), as its own siblings do, and it reports the whole prompt as cached. One whose prompt
 * only shares more full blocks with the prompt of a running request than the prefix cache holds for it restores them
 * from the cache once that request has donated them ({@link PrefillSharing}). Either waits, not forwarding, while that
 * prompt is still being forwarded; a waiting request counts as running for admission and may be cancelled. Each step
 * first ends the waits whose prefill is over, however it ended (done, failed, cancelled), so a waiter never hangs: it
 * takes the whole prompt if that request still shares it, else restores what the cache holds then, perhaps nothing.
 * Only a request forwarding its own prompt is waited for, so waits never chain. A request asking for prompt logprobs
 * needs every position's logits and never waits or takes another's prompt.
 *
 * <p>Failures: whatever a step throws, {@link Error}s included, fails only the requests it concerns (the batch of a
 * failed forward, the one request a sampler, a constraint or a listener failed for, every running request when the
 * step broke elsewhere) and the loop goes on. A forward that succeeds clears the count of failed steps; the
 * {@value #MAX_FAILED_STEPS}th failed step in a row means the engine is broken: the loop fails every running and
 * waiting request, stops, and says why in {@link #broken()}, so the model can be reloaded.
 *
 * <p>A grammar-constrained sequence's next token mask is computed off this thread, on its {@link StructuredDecoding}'s
 * mask thread, as soon as it takes a token; until the mask is ready the sequence sits the steps out, so one tenant's
 * expensive grammar never slows the other sequences' tokens (and its own parse is bounded per token).
 */
final class Scheduler implements Runnable {

    private static final long IDLE_POLL_MILLIS = 100;
    /** Failed steps in a row after which the engine counts as broken and the loop stops for a reload. */
    static final int MAX_FAILED_STEPS = 3;
    private static final System.Logger LOG = System.getLogger(Scheduler.class.getName());
    /** How long a loop whose every sequence awaits a grammar mask waits before it looks for new requests again. */
    private static final long MASK_WAIT_MILLIS = 1;

    private final ModelRunner runner;
    private final Tokenizer tokenizer;
    private final EndOfSequence eos;
    private final GeneratorOptions options;
    private final WaitingQueue waiting;
    private final Queue<RequestState> cancelledWaiting;
    private final GeneratorStats stats;
    private final StructuredDecoding structured;
    private final PrefixCache prefixCache;
    private final List<RequestState> running = new ArrayList<>();
    private final PrefillPacer pacer;
    /** The nanosecond clock the forwards are timed by ({@link System#nanoTime()} but in tests). */
    private final LongSupplier clock;
    /** When the loop last had something to run, for releasing idle memory; 0 once released. */
    private long busyNanos = System.nanoTime();
    private volatile boolean closing;
    private volatile String broken;
    private int failedSteps;

    Scheduler(ModelRunner runner, Tokenizer tokenizer, EndOfSequence eos, GeneratorOptions options,
            WaitingQueue waiting, Queue<RequestState> cancelledWaiting, GeneratorStats stats,
            PrefixCache prefixCache, LongSupplier clock) {
        this.prefixCache = prefixCache;
        this.clock = clock;
        this.runner = runner;
        this.tokenizer = tokenizer;
        this.eos = eos;
        this.options = options;
        this.waiting = waiting;
        this.cancelledWaiting = cancelledWaiting;
        this.stats = stats;
        this.structured = new StructuredDecoding(tokenizer);
        this.pacer = new PrefillPacer(options.prefillBudget(), options.prefillChunkTokens());
    }

    void close() {
        closing = true;
    }

    @Override
    public void run() {
        try {
            while (!closing && broken == null) {
                try {
                    endCancelledWaiting();
                    admit();
                    showRunning();
                    if (!running.isEmpty()) {
                        step();
                        showRunning();
                        busyNanos = System.nanoTime();
                    } else {
                        releaseIfIdle();
                    }
                } catch (InterruptedException e) {
                    throw e;
                } catch (Throwable e) {
                    // whatever the step was doing when it broke, the requests it held end, and the loop goes on
                    failed(e);
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
        RuntimeException end = closing ? new IllegalStateException("the generator was closed")
                : GenerationFailure.stopped(broken == null ? "its thread failed" : broken);
        failRunning(end);
        if (!closing) {
            // the generator stays open until its owner replaces it; meanwhile no request may wait for nothing
            waiting.drain().forEach(r -> r.fail(end));
        }
        structured.close();
        stats.running(0, 0);
        endCancelledWaiting();
        prefixCache.clear();
    }

    /**
     * Why the loop gave up, or null while it serves: {@value #MAX_FAILED_STEPS} steps in a row failed, so the engine
     * (not a request) is broken and the model needs reloading. Read from any thread.
     */
    String broken() {
        return broken;
    }

    /** Counts a failed step; the {@value #MAX_FAILED_STEPS}th in a row breaks the loop (checked before it goes on). */
    private void failed(Throwable failure) {
        if (++failedSteps >= MAX_FAILED_STEPS) {
            broken = "its last " + failedSteps + " steps failed";
        }
        // counted before it is logged, so a failure to log (another OutOfMemoryError) still counts
        LOG.log(System.Logger.Level.WARNING, "a generation step failed (" + failedSteps + " in a row); its requests"
                + " fail", failure);
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

    private void endCancelledWaiting() {
        for (RequestState left = cancelledWaiting.poll(); left != null; left = cancelledWaiting.poll()) {
            stats.cancelledWaiting.increment();
            left.abortWaiting();
        }
    }

    private void admit() throws InterruptedException {
        if (running.isEmpty() && !waiting.awaitAny(IDLE_POLL_MILLIS)) {
            return;
        }
        int active = running.stream().mapToInt(RequestState::n).sum();
        while (true) {
            int sequences = active;
            Optional<RequestState> next = waiting.takeIf(n -> fits(sequences, n));
            if (next.isEmpty()) {
                return;
            }
            stats.admittedAfter(System.nanoTime() - next.get().enqueuedNanos);
            active += next.get().n();
            start(next.get());
        }
    }

    /** Whether a request of {@code n} sequences joins {@code active} ones; on an idle loop, always. */
    private boolean fits(int active, int n) {
        return active == 0 || active + n <= options.maxBatchSequences();
    }

    private void start(RequestState request) {
        int[] prompt = request.request.promptTokenIds();
        var params = request.request.params();
        int capacity = (int) Math.min(options.maxModelLen(), (long) prompt.length + params.maxTokens());
        LogprobTexts texts = new LogprobTexts(tokenizer);
        TokenStops stops = new TokenStops(params, eos, prompt.length, options.maxModelLen());
        Set<Integer> endIds = new HashSet<>();
        if (!params.ignoreEos()) {
            eos.eosTokenId().ifPresent(endIds::add);
            endIds.addAll(eos.extraEosTokenIds());
        }
        try {
            for (int i = 0; i < params.n(); i++) {
                Optional<ConstraintCursor> cursor = request.request.constraint()
                        .map(c -> structured.start(c, endIds, params.minTokens()));
                request.sequences.add(new SequenceState(i, prompt, runner.newCache(capacity), request.request.adapter(),
                        new Sampler(params, prompt, stops.minTokensStopIds(), i), stops,
                        new StopStrings(params.stop(), params.includeStopStrInOutput()),
                        new IncrementalDetokenizer(tokenizer, params.skipSpecialTokens(),
                                params.spacesBetweenSpecialTokens(), prompt), texts,
                        params.minTokens(), i == 0 ? params.promptLogprobs() : OptionalInt.empty(), cursor));
            }
            request.sequences.subList(1, request.sequences.size()).forEach(SequenceState::awaitFirst);
            Optional<RequestState> same = params.promptLogprobs().isEmpty() ? samePrompt(request) : Optional.empty();
            if (same.isPresent() && same.get().sharesPrompt()) {
                takeLeadersPrompt(request, same.get());
            } else {
                request.awaitedPrefill = same.or(() -> PrefillSharing.leaderFor(request, running, prefixCache))
                        .orElse(null);
                if (!request.awaitsPrefill()) {
                    restore(request);
                }
            }
        } catch (Throwable e) {
            // an OutOfMemoryError allocating the caches, say: this request ends, the ones it would have joined go on
            request.fail(e);
            return;
        }
        running.add(request);
    }

    /**
     * Starts the first sequence of {@code request} from the longest prefix of its prompt the prefix cache holds,
     * unless it asks for prompt logprobs.
     */
    private void restore(RequestState request) {
        if (request.request.params().promptLogprobs().isEmpty()) {
            SequenceState first = request.sequences.getFirst();
            request.cachedTokens = prefixCache.restore(request.prefixScope(),
                    request.request.promptTokenIds(), first.cache());
            first.restored(request.cachedTokens);
        }
    }

    /**
     * A running request of the same scope with the very same prompt, forwarding it or done with it, for
     * {@code request} to take the prompt from.
     */
    private Optional<RequestState> samePrompt(RequestState request) {
        return running.stream().filter(r -> (r.sharesPrompt() || r.prefillingItself()) && samePrompt(r, request))
                .findFirst();
    }

    /** Whether {@code a} and {@code b} have the very same prompt in the same prefix scope. */
    private static boolean samePrompt(RequestState a, RequestState b) {
        return Arrays.equals(a.request.promptTokenIds(), b.request.promptTokenIds())
                && a.prefixScope().equals(b.prefixScope());
    }

    /**
     * Ends the waits whose awaited prefill is over: a request with the same prompt as the one it waited for takes that
     * whole prompt if it is still shared, any other restores from the prefix cache, which holds the donated blocks.
     */
    private void endSettledWaits() {
        for (RequestState request : running) {
            if (request.awaitsPrefill() && PrefillSharing.settled(request.awaitedPrefill)) {
                RequestState awaited = request.awaitedPrefill;
                request.awaitedPrefill = null;
                if (request.handle.cancelRequested()) {
                    continue;
                }
                if (awaited.sharesPrompt() && samePrompt(awaited, request)) {
                    takeLeadersPrompt(request, awaited);
                } else {
                    restoreOrFail(request);
                }
            }
        }
        running.removeIf(RequestState::done);
    }

    private void restoreOrFail(RequestState request) {
        try {
            restore(request);
        } catch (Throwable e) {
            request.fail(e);
        }
    }

    /** One batched forward over every unfinished sequence, then sampling, streaming and completion. */
    private void step() {
        long stepStart = clock.getAsLong();
        endSettledWaits();
        List<SequenceState> batch = new ArrayList<>();
        List<RequestState> owners = new ArrayList<>();
        List<CompletableFuture<?>> masking = new ArrayList<>();
        for (RequestState request : running) {
            for (SequenceState sequence : request.sequences) {
                if (!sequence.finished() && request.handle.cancelRequested()) {
                    request.publish(sequence.abort());
                } else if (!sequence.finished() && !sequence.awaitsFirst() && !request.awaitsPrefill()) {
                    if (sequence.ready()) {
                        batch.add(sequence);
                        owners.add(request);
                    } else {
                        sequence.pendingMask().ifPresent(masking::add);
                    }
                }
            }
        }
        if (batch.isEmpty() && !masking.isEmpty()) {
            awaitAny(masking);
        }
        int decoding = (int) batch.stream().filter(s -> !s.prefilling()).count();
        int position = batch.stream().filter(SequenceState::prefilling).findFirst().map(s -> s.cache().length())
                .orElse(0);
        int budget = decoding == 0 ? Integer.MAX_VALUE : pacer.tokens(decoding, position);
        withinBudget(batch, owners, budget, decoding == 0 || pacer.severalPieces());
        if (!batch.isEmpty()) {
            List<SequenceInput> inputs = new ArrayList<>(batch.size());
            int prompt = 0;
            for (SequenceState sequence : batch) {
                SequenceInput input = sequence.nextInput(sequence.prefilling()
                        ? Math.min(options.prefillChunkTokens(), budget - prompt) : 1);
                inputs.add(input);
                prompt += sequence.prefilling() ? input.length() : 0;
            }
            double predicted = decoding > 0 && prompt > 0 ? pacer.predictedNanos(prompt, position) : Double.NaN;
            stats.prefillTokens.add(prompt);
            List<SequenceLogits> logits;
            long forwardNanos;
            try {
                stats.forwards.increment();
                long start = clock.getAsLong();
                logits = runner.forward(inputs);
                forwardNanos = clock.getAsLong() - start;
                pacer.forwarded(decoding, prompt, position, forwardNanos);
            } catch (Throwable e) {
                // counted first, so whoever hears of this failure finds the loop already broken if it now is
                failed(e);
                owners.stream().distinct().forEach(r -> r.fail(e));
                running.removeIf(RequestState::done);
                return;
            }
            failedSteps = 0;
            for (int i = 0; i < batch.size(); i++) {
                RequestState owner = owners.get(i);
                SequenceState sequence = batch.get(i);
                try {
                    boolean prefilling = sequence.prefilling();
                    if (sequence.forwarded(inputs.get(i), logits.get(i)) && !owner.done()) {
                        stats.generatedTokens.increment();
                        owner.publish(sequence.accept(logits.get(i).last()));
                        if (prefilling && !owner.done()) {
                            promptForwarded(owner, sequence, logits.get(i).last());
                        }
                    }
                } catch (Throwable e) {
                    owner.fail(e);
                }
            }
            trace(decoding, prompt, position, predicted, forwardNanos, clock.getAsLong() - stepStart);
        }
        running.forEach(RequestState::completeIfFinished);
        running.stream().filter(r -> r.done() && r.handle.cancelRequested()).forEach(r -> stats.aborted.increment());
        running.removeIf(RequestState::done);
    }

    /**
     * Logs a step that decoded (at DEBUG, {@code java.util.logging}'s FINE): how many sequences it decoded, the prompt
     * tokens it forwarded beside them and the position the first prefilling sequence's piece started at, the extra
     * time the pacer predicted for them, the forward's and the whole step's time, and the pacer's figures after it;
     * so the pacing can be followed step by step on a live server.
     */
    private void trace(int decoding, int prompt, int position, double predicted, long forwardNanos, long stepNanos) {
        if (decoding > 0 && LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, String.format(Locale.ROOT,
                    "step: decoding %d, prompt %d at %d, predicted +%.1f ms, forward %.1f ms, step %.1f ms, %s",
                    decoding, prompt, position, predicted / 1e6, forwardNanos / 1e6, stepNanos / 1e6, pacer));
        }
    }

    /**
     * Leaves out of {@code batch} (and {@code owners}, index for index) the prefilling sequences that {@code budget}
     * prompt tokens do not reach. The budget goes to the prefilling sequences in running order, so the earliest
     * admitted prompt finishes first; unless {@code severalPieces}, only the first gets any (a paced budget is the
     * cost of one prefill run). A paced budget is 0 for a step only while the pacer has no decode-only step of the
     * running streams timed, which that step gives it; else it is at least one token, so a prompt moves on.
     */
    private void withinBudget(List<SequenceState> batch, List<RequestState> owners, int budget,
            boolean severalPieces) {
        int left = budget;
        for (int i = 0; i < batch.size(); i++) {
            if (batch.get(i).prefilling()) {
                if (left <= 0) {
                    batch.remove(i);
                    owners.remove(i);
                    i--;
                } else {
                    left = severalPieces ? left - Math.min(batch.get(i).promptLeft(),
                            Math.min(left, options.prefillChunkTokens())) : 0;
                }
            }
        }
    }

    /** Waits a little for one of the grammar masks being computed, so a loop with nothing else to do does not spin. */
    private static void awaitAny(List<CompletableFuture<?>> masks) {
        try {
            CompletableFuture.anyOf(masks.toArray(CompletableFuture[]::new)).get(MASK_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // a failed mask fails its request at its next step; a slow one is waited for again
        }
    }

    /**
     * The first sequence of {@code request} has just forwarded its whole prompt, giving {@code last}: its full blocks
     * go to the prefix cache, and each waiting sibling copies the prompt and samples its first token from
     * {@code last} (the sampler does not change the array).
     */
    private void promptForwarded(RequestState request, SequenceState first, float[] last) {
        int[] prompt = request.request.promptTokenIds();
        prefixCache.donate(request.prefixScope(), prompt, first.cache());
        request.promptLogits = last;
        takePrompt(request, first, last);
    }

    /**
     * {@code follower}, every sequence of it, takes its whole prompt from {@code leader}, whose first sequence has
     * forwarded the same prompt, and samples from its prompt logits.
     */
    private void takeLeadersPrompt(RequestState follower, RequestState leader) {
        follower.cachedTokens = follower.request.promptTokenIds().length;
        follower.promptLogits = leader.promptLogits;
        follower.sequences.getFirst().awaitFirst();
        takePrompt(follower, leader.sequences.getFirst(), leader.promptLogits);
    }

    /** Each of {@code request}'s sequences that awaits {@code first} copies its prompt and samples from {@code last}. */
    private void takePrompt(RequestState request, SequenceState first, float[] last) {
        for (SequenceState sequence : request.sequences) {
            if (sequence.awaitsFirst() && !sequence.finished() && !request.done()) {
                try {
                    sequence.copyPromptFrom(first, runner);
                } catch (Throwable e) {
                    request.fail(e);
                    return;
                }
                stats.generatedTokens.increment();
                request.publish(sequence.accept(last));
            }
        }
    }
}
