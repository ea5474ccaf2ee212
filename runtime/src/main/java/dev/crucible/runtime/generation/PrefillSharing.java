package dev.crucible.runtime.generation;

import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.runtime.generation.prefix.PrefixBlocks;
import dev.crucible.runtime.generation.prefix.PrefixCache;
import dev.crucible.runtime.generation.prefix.PrefixScope;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How a request gets its prompt's prefill. Within a request: the first of its {@code n} sequences starts from the
 * longest prefix of its prompt held by the {@link PrefixCache} (unless prompt logprobs are asked for, which need every
 * position's logits) and forwards only the rest; the other {@code n - 1} wait, then copy its whole prompt and sample
 * their first token from its last prompt logits, so a request costs one prefill. The first sequence's full prompt
 * blocks then go to the prefix cache for later requests of the same {@link PrefixScope}.
 *
 * <p>Across requests: one admitted while another of the same scope and the very same prompt runs, as an RL client's
 * group of rollouts or a burst of retries sends them, forwards nothing of it: each of its sequences copies that
 * request's prompt and samples its first token from that request's last prompt logits (a running request keeps them),
 * as its own siblings do, and it reports the whole prompt as cached. One whose prompt only shares more full blocks
 * with the prompt of a running request still prefilling than the prefix cache holds for it now waits for that
 * prefill, whose blocks go to the prefix cache, and then restores them instead of forwarding its own copy; only waits
 * that save at least one block are taken. Either waits, not forwarding, while that prompt is still being forwarded; a
 * waiting request counts as running for admission and may be cancelled. Each step first ends the waits whose prefill
 * is over, however it ended (done, failed, cancelled), so a waiter never hangs: it takes the whole prompt if that
 * request still shares it, else restores what the cache holds then, perhaps nothing. Only a request forwarding its own
 * prompt is waited for, so waits never chain. A request asking for prompt logprobs needs every position's logits and
 * never waits or takes another's prompt.
 *
 * <p>Used on the scheduling thread only, which owns the requests it is given.
 */
final class PrefillSharing {

    private final ModelRunner runner;
    private final PrefixCache cache;
    private final GeneratorStats stats;
    private final List<RequestState> running;

    /** @param running the loop's running requests, whose prompts are shared */
    PrefillSharing(ModelRunner runner, PrefixCache cache, GeneratorStats stats, List<RequestState> running) {
        this.runner = runner;
        this.cache = cache;
        this.stats = stats;
        this.running = running;
    }

    /**
     * Decides where a request being admitted, its sequences made, gets its prompt from: its siblings wait for its
     * first sequence; that one takes the whole prompt of a running request with the same prompt that has it, or
     * waits for a running request's prefill, or restores from the prefix cache what it holds.
     */
    void join(RequestState request) {
        request.sequences.subList(1, request.sequences.size()).forEach(SequenceState::awaitFirst);
        Optional<RequestState> same = request.request.params().promptLogprobs().isEmpty() ? samePrompt(request)
                : Optional.empty();
        if (same.isPresent() && same.get().sharesPrompt()) {
            takeLeadersPrompt(request, same.get());
        } else {
            request.awaitedPrefill = same.or(() -> leaderFor(request)).orElse(null);
            if (!request.awaitsPrefill()) {
                restore(request);
            }
        }
    }

    /**
     * Ends the waits whose awaited prefill is over: a request with the same prompt as the one it waited for takes that
     * whole prompt if it is still shared, any other restores from the prefix cache, which holds the donated blocks.
     */
    void endSettledWaits() {
        for (RequestState request : running) {
            if (request.awaitsPrefill() && settled(request.awaitedPrefill)) {
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

    /**
     * The first sequence of {@code request} has just forwarded its whole prompt, giving {@code last}: its full blocks
     * go to the prefix cache, and each waiting sibling copies the prompt and samples its first token from
     * {@code last} (the sampler does not change the array).
     */
    void promptForwarded(RequestState request, SequenceState first, float[] last) {
        int[] prompt = request.request.promptTokenIds();
        cache.donate(request.prefixScope(), prompt, first.cache());
        request.promptLogits = last;
        takePrompt(request, first, last);
    }

    /**
     * Starts the first sequence of {@code request} from the longest prefix of its prompt the prefix cache holds,
     * unless it asks for prompt logprobs.
     */
    private void restore(RequestState request) {
        if (request.request.params().promptLogprobs().isEmpty()) {
            SequenceState first = request.sequences.getFirst();
            request.cachedTokens = cache.restore(request.prefixScope(), request.request.promptTokenIds(),
                    first.cache());
            first.restored(request.cachedTokens);
        }
    }

    private void restoreOrFail(RequestState request) {
        try {
            restore(request);
        } catch (Throwable e) {
            request.fail(e);
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

    /**
     * The running request whose prefill {@code request} should wait for: the one whose prompt would leave the most
     * restorable tokens in the prefix cache for it, if that beats what the cache holds for it now by a block; the
     * earliest admitted among equals, as it has forwarded the most. Empty for a request that asks for prompt logprobs
     * (it restores nothing) or when caching is off.
     */
    private Optional<RequestState> leaderFor(RequestState request) {
        if (request.request.params().promptLogprobs().isPresent()) {
            return Optional.empty();
        }
        PrefixScope scope = request.prefixScope();
        int[] prompt = request.request.promptTokenIds();
        int best = cache.restorable(scope, prompt);
        RequestState leader = null;
        for (RequestState other : running) {
            if (other == request || !other.prefillingItself() || !scope.equals(other.prefixScope())) {
                continue;
            }
            int[] theirs = other.request.promptTokenIds();
            int gained = Math.min(Math.min(PrefixCache.restorableAtMost(prompt), cache.keepable(theirs)),
                    commonBlockTokens(prompt, theirs));
            if (gained > best) {
                best = gained;
                leader = other;
            }
        }
        return Optional.ofNullable(leader);
    }

    /**
     * Whether the prefill {@code leader} was waited for is over, one way or another: its first sequence forwarded the
     * whole prompt (and donated its blocks), or the request failed, finished or was cancelled. A waiter then restores
     * what the prefix cache holds, which may be nothing, and forwards the rest itself.
     */
    private static boolean settled(RequestState leader) {
        return !leader.prefillingItself();
    }

    /** The tokens in the full blocks at the start of {@code a} and {@code b} that are equal. */
    private static int commonBlockTokens(int[] a, int[] b) {
        int mismatch = Arrays.mismatch(a, b);
        int same = mismatch < 0 ? a.length : mismatch;
        return same / PrefixBlocks.TOKENS * PrefixBlocks.TOKENS;
    }
}
