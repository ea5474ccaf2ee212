package dev.crucible.application.inference.generation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A request inside the generator: what was asked, whom to tell, and its sequences once admitted. Ordered for
 * scheduling by priority (lower first), then arrival. Used only by the scheduling thread after submission.
 */
final class RequestState {

    static final Comparator<RequestState> SCHEDULING_ORDER = Comparator
            .comparingInt((RequestState r) -> r.request.priority()).thenComparingLong(r -> r.arrival);

    final GenerationRequest request;
    final GenerationListener listener;
    final GenerationHandle handle;
    final long arrival;
    final List<SequenceState> sequences = new ArrayList<>();
    private boolean done;

    RequestState(GenerationRequest request, GenerationListener listener, GenerationHandle handle, long arrival) {
        this.request = request;
        this.listener = listener;
        this.handle = handle;
        this.arrival = arrival;
    }

    int n() {
        return request.params().n();
    }

    boolean done() {
        return done;
    }

    /** Streams a delta; a throwing listener fails the request. */
    void publish(GenerationDelta delta) {
        if (done) {
            return;
        }
        try {
            listener.onDelta(delta);
        } catch (RuntimeException e) {
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
        GenerationResult result = new GenerationResult(request.promptTokenIds().length,
                sequences.stream().map(SequenceState::output).toList(), sequences.getFirst().promptLogprobs());
        try {
            listener.onComplete(result);
        } catch (RuntimeException e) {
            handle.fail(e);
            return;
        }
        handle.complete(result);
    }

    /** Fails the request once; frees its caches. */
    void fail(RuntimeException failure) {
        if (done) {
            return;
        }
        done = true;
        sequences.forEach(SequenceState::release);
        try {
            listener.onFailure(failure);
        } catch (RuntimeException ignored) {
            // the request has failed already; a listener failing to hear it changes nothing
        }
        handle.fail(failure);
    }
}
