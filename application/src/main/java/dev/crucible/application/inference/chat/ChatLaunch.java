package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.serving.AdapterCache;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.runtime.generation.GenerationDelta;
import dev.crucible.runtime.generation.GenerationHandle;
import dev.crucible.runtime.generation.GenerationListener;
import dev.crucible.runtime.generation.GenerationRequest;
import dev.crucible.runtime.generation.GenerationResult;
import dev.crucible.runtime.generation.Generator;
import java.time.Duration;
import java.util.Optional;

/**
 * Starts a prepared chat's generation and owns what it holds while it runs: the admission ticket and the
 * checkpoint's adapter lease. Both are taken here, after admission, and given back exactly once when generation ends
 * however it ends (finished, failed, cancelled) or never starts (refused as overloaded, or a failure while
 * submitting). Also tells the {@link ChatObserver} when the first token comes and how the request ended.
 */
record ChatLaunch(AdapterCache adapters, ChatAdmission admission, ChatObserver observer) {

    /**
     * Submits {@code chat}; progress goes to {@code listener} on the generator's thread. Refused as overloaded when
     * the caller's key or entity has its most requests already, or the model's waiting queue is full.
     */
    Outcome<GenerationHandle> start(PreparedChat chat, GenerationListener listener) {
        Generator generator = chat.model().base().generator();
        Outcome<ChatAdmission.Ticket> admitted = admission.admit(chat.generation().owner(), generator.retryAfter());
        if (!(admitted instanceof Outcome.Done<ChatAdmission.Ticket>(ChatAdmission.Ticket ticket))) {
            return admitted.map(t -> null);
        }
        Optional<AdapterCache.Lease> lease = Optional.empty();
        Outcome<GenerationHandle> handle;
        try {
            lease = chat.model().adapter().map(source -> adapters.acquire(chat.model().base(), source));
            GenerationRequest request = chat.generation().withAdapter(lease.map(AdapterCache.Lease::adapter).orElse(null));
            handle = generator.submit(request, observed(chat.model().base().name(), chat.arrivedNanos(), listener,
                    releaser(lease, ticket)));
        } catch (RuntimeException e) {
            releaser(lease, ticket).run();
            throw e;
        }
        if (handle instanceof Outcome.Refused<GenerationHandle>) {
            releaser(lease, ticket).run();
        }
        return handle;
    }

    /**
     * What a chat that submits its own requests (beam search) holds while it runs: the admission ticket and the
     * adapter lease, taken as {@link #start} takes them. Refused as overloaded as {@link #start} is. The caller runs
     * {@link Held#release()} once it is done, however it ends.
     */
    Outcome<Held> hold(PreparedChat chat) {
        Generator generator = chat.model().base().generator();
        Outcome<ChatAdmission.Ticket> admitted = admission.admit(chat.generation().owner(), generator.retryAfter());
        if (!(admitted instanceof Outcome.Done<ChatAdmission.Ticket>(ChatAdmission.Ticket ticket))) {
            return admitted.map(t -> null);
        }
        Optional<AdapterCache.Lease> lease = Optional.empty();
        try {
            lease = chat.model().adapter().map(source -> adapters.acquire(chat.model().base(), source));
            return Outcome.done(new Held(chat.generation().withAdapter(lease.map(AdapterCache.Lease::adapter)
                    .orElse(null)), releaser(lease, ticket)));
        } catch (RuntimeException e) {
            releaser(lease, ticket).run();
            throw e;
        }
    }

    /**
     * A held chat's generation request, its adapter set, and how to give back what it holds.
     *
     * @param release closes the lease and releases the ticket; the second and later runs do nothing
     */
    record Held(GenerationRequest request, Runnable release) {
    }

    /** Tells the observer that a chat that submitted its own requests got its first token and ended so. */
    void ended(PreparedChat chat, String finishReason) {
        String model = chat.model().base().name();
        Duration took = since(chat.arrivedNanos());
        observer.firstToken(model, took);
        observer.finished(model, chat.generation().promptTokenIds().length, took, finishReason);
    }

    /**
     * {@code listener}, running {@code release} when the request ends (before the listener hears the end, so a
     * client that sees the end finds the adapter free) and telling the observer. A failure reaches the listener as
     * the client should hear it ({@link ChatFailures}), and is logged here.
     */
    GenerationListener observed(String model, long arrivedNanos, GenerationListener listener, Runnable release) {
        return new GenerationListener() {
            private boolean first = true;

            @Override
            public void onDelta(GenerationDelta delta) {
                if (first) {
                    first = false;
                    observer.firstToken(model, since(arrivedNanos));
                }
                listener.onDelta(delta);
            }

            @Override
            public void onComplete(GenerationResult result) {
                release.run();
                observer.finished(model, result.promptTokens(), since(arrivedNanos),
                        result.sequences().isEmpty() ? "abort" : result.sequences().getFirst().finish().reason().wireName());
                listener.onComplete(result);
            }

            @Override
            public void onFailure(RuntimeException failure) {
                release.run();
                listener.onFailure(ChatFailures.logged(model, failure));
            }
        };
    }

    private static Duration since(long nanos) {
        return Duration.ofNanos(System.nanoTime() - nanos);
    }

    /** Releases the lease and the admission ticket; a lease closes once, and a ticket releases once. */
    static Runnable releaser(Optional<AdapterCache.Lease> lease, ChatAdmission.Ticket ticket) {
        return () -> {
            lease.ifPresent(AdapterCache.Lease::close);
            ticket.release();
        };
    }
}
