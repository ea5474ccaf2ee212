package dev.crucible.runtime.generation;

import dev.crucible.runtime.generation.prefix.PrefixScope;
import dev.crucible.runtime.generation.stopping.Finish;
import dev.crucible.runtime.generation.stopping.FinishReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A request inside the generator: what was asked, whom to tell, when it was queued, and its sequences once admitted
 * ({@link WaitingQueue} decides the order). Used only by the scheduling thread after submission.
 */
final class RequestState {

    final GenerationRequest request;
    final GenerationListener listener;
    final GenerationHandle handle;
    /** {@link System#nanoTime()} at submission. */
    final long enqueuedNanos;
    final List<SequenceState> sequences = new ArrayList<>();
    /**
     * Prompt tokens the first sequence restored from the prefix cache (set when it restores), or, for a request that
     * took its prompt from a leader's prefill, the whole prompt.
     */
    int cachedTokens;
    /**
     * The logits after the last prompt token, once the first sequence has them: kept while the request runs (one
     * vocabulary of floats) so a request with the same prompt admitted meanwhile starts from them and this cache.
     */
    float[] promptLogits;
    /**
     * The running request whose prompt prefill this one waits for ({@link PrefillSharing}), or null when it is not
     * waiting: then it takes that request's whole prompt if it is the same, else restores the shared blocks from the
     * prefix cache.
     */
    RequestState awaitedPrefill;
    private boolean done;

    RequestState(GenerationRequest request, GenerationListener listener, GenerationHandle handle, long enqueuedNanos) {
        this.request = request;
        this.listener = listener;
        this.handle = handle;
        this.enqueuedNanos = enqueuedNanos;
    }

    int n() {
        return request.params().n();
    }

    /** Whose cached prompt prefixes this request may reuse: its owner's entity, its cache salt and its adapter. */
    PrefixScope prefixScope() {
        return new PrefixScope(request.owner().entity(), request.cacheSalt(), request.adapter());
    }

    /** Whether a request with the same prompt may take it from this one now: its prompt is done, it still runs. */
    boolean sharesPrompt() {
        return !done && promptLogits != null;
    }

    /**
     * Whether the first sequence is forwarding its own prompt now: not waiting on another request, not finished,
     * failed or cancelled. Only such a request is waited for, so waits never chain.
     */
    boolean prefillingItself() {
        SequenceState first = sequences.getFirst();
        return !done && awaitedPrefill == null && !handle.cancelRequested() && !first.finished()
                && first.prefilling();
    }

    /** Whether this request waits for another's prompt prefill; none of its sequences is forwarded meanwhile. */
    boolean awaitsPrefill() {
        return awaitedPrefill != null;
    }

    boolean done() {
        return done;
    }

    /** Streams a delta; a throwing listener (whatever it throws) fails the request. */
    void publish(GenerationDelta delta) {
        if (done) {
            return;
        }
        try {
            listener.onDelta(delta);
        } catch (Throwable e) {
            fail(e);
        }
    }

    /** Completes the request if every sequence finished; frees their caches. */
    void completeIfFinished() {
        if (done || !sequences.stream().allMatch(SequenceState::finished)) {
            return;
        }
        done = true;
        sequences.forEach(SequenceState::release);
        complete(new GenerationResult(request.promptTokenIds().length, cachedTokens,
                sequences.stream().map(SequenceState::output).toList(), sequences.getFirst().promptLogprobs()));
    }

    /**
     * Ends a request cancelled before it was admitted: each of its {@code n} sequences ends with {@code abort} and
     * nothing generated, as a cancelled running request's unfinished sequences do.
     */
    void abortWaiting() {
        List<SequenceOutput> outputs = new ArrayList<>();
        for (int i = 0; i < n(); i++) {
            Finish abort = Finish.of(FinishReason.ABORT);
            publish(new GenerationDelta(i, List.of(), "", List.of(), Optional.of(abort)));
            outputs.add(new SequenceOutput(i, List.of(), "", List.of(), abort));
        }
        if (done) {
            return;
        }
        done = true;
        complete(new GenerationResult(request.promptTokenIds().length, outputs));
    }

    /** Tells the listener, then the handle; a throwing listener fails the handle instead. */
    private void complete(GenerationResult result) {
        try {
            listener.onComplete(result);
        } catch (Throwable e) {
            handle.fail(GenerationFailure.of(e));
            return;
        }
        handle.complete(result);
    }

    /**
     * Fails the request once; frees its caches. A {@link RuntimeException} reaches the listener and the handle as it
     * is, anything else (an {@link Error}) as a {@link GenerationFailure}.
     */
    void fail(Throwable cause) {
        if (done) {
            return;
        }
        done = true;
        RuntimeException failure = GenerationFailure.of(cause);
        for (SequenceState sequence : sequences) {
            try {
                sequence.release();
            } catch (Throwable ignored) {
                // a cache that cannot be closed is the engine's loss; the request still ends, and its others free
            }
        }
        try {
            listener.onFailure(failure);
        } catch (Throwable ignored) {
            // the request has failed already; a listener failing to hear it changes nothing
        }
        handle.fail(failure);
    }
}
