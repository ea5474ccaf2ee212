package dev.crucible.runtime.generation;

import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.hf.tokenizer.Tokenizer;
import dev.crucible.runtime.generation.logprobs.LogprobTexts;
import dev.crucible.runtime.generation.sampling.Sampler;
import dev.crucible.runtime.generation.stopping.EndOfSequence;
import dev.crucible.runtime.generation.stopping.StopStrings;
import dev.crucible.runtime.generation.stopping.TokenStops;
import dev.crucible.runtime.structured.ConstraintCursor;
import dev.crucible.runtime.structured.StructuredDecoding;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Queue;
import java.util.Set;

/**
 * Admission to the running batch. Requests wait in {@link WaitingQueue}'s order (lower priority value first, then
 * owners in turn, then arrival); the next in turn is admitted while the running sequences plus its {@code n} fit
 * {@code maxBatchSequences} (an idle loop always admits one), so nothing overtakes it. Requests cancelled while
 * waiting end here, on the loop's thread, without running. An admitted request gets its {@code n} sequences (each its
 * cache, sampler, stops, detokenizer and, when constrained, its grammar cursor on the {@link StructuredDecoding} this
 * class owns) and joins the running ones, its prompt's prefill shared as {@link PrefillSharing} decides.
 *
 * <p>Used on the scheduling thread only.
 */
final class Admission {

    private static final long IDLE_POLL_MILLIS = 100;

    private final ModelRunner runner;
    private final Tokenizer tokenizer;
    private final EndOfSequence eos;
    private final GeneratorOptions options;
    private final WaitingQueue waiting;
    private final Queue<RequestState> cancelledWaiting;
    private final GeneratorStats stats;
    private final StructuredDecoding structured;
    private final PrefillSharing sharing;
    private final List<RequestState> running;

    /** @param running the loop's running requests, which admitted ones join */
    Admission(ModelRunner runner, Tokenizer tokenizer, EndOfSequence eos, GeneratorOptions options,
            WaitingQueue waiting, Queue<RequestState> cancelledWaiting, GeneratorStats stats, PrefillSharing sharing,
            List<RequestState> running) {
        this.runner = runner;
        this.tokenizer = tokenizer;
        this.eos = eos;
        this.options = options;
        this.waiting = waiting;
        this.cancelledWaiting = cancelledWaiting;
        this.stats = stats;
        this.structured = new StructuredDecoding(tokenizer);
        this.sharing = sharing;
        this.running = running;
    }

    /** Ends, each with {@code abort} and nothing generated, the requests cancelled while they waited. */
    void endCancelledWaiting() {
        for (RequestState left = cancelledWaiting.poll(); left != null; left = cancelledWaiting.poll()) {
            stats.cancelledWaiting.increment();
            left.abortWaiting();
        }
    }

    /** Admits the waiting requests that fit, in turn; an idle loop first waits a little for one. */
    void admit() throws InterruptedException {
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

    /** Stops the grammar masks' thread, once the loop has ended. */
    void close() {
        structured.close();
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
            sharing.join(request);
        } catch (Throwable e) {
            // an OutOfMemoryError allocating the caches, say: this request ends, the ones it would have joined go on
            request.fail(e);
            return;
        }
        running.add(request);
    }
}
