package dev.crucible.runtime.generation;

import dev.crucible.runtime.generation.prefix.PrefixBlocks;
import dev.crucible.runtime.generation.prefix.PrefixCache;
import dev.crucible.runtime.generation.prefix.PrefixScope;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Prefill shared across requests admitted together: a request whose prompt shares more full blocks with the prompt
 * of a running request still prefilling (its first sequence still forwarding the prompt) than the {@link PrefixCache}
 * holds for it now waits for that prefill, whose blocks go to the prefix cache, and then restores them instead of
 * forwarding its own copy. Only waits that save at least one block are taken, only within one {@link PrefixScope},
 * and only on a request that is forwarding itself, never on another waiter, so waits never chain.
 *
 * <p>Stateless; used only by the scheduling thread, which owns the requests it is given.
 */
final class PrefillSharing {

    private PrefillSharing() {
    }

    /**
     * The running request whose prefill {@code request} should wait for: the one whose prompt would leave the most
     * restorable tokens in the prefix cache for it, if that beats what the cache holds for it now by a block; the
     * earliest admitted among equals, as it has forwarded the most. Empty for a request that asks for prompt logprobs
     * (it restores nothing) or when caching is off.
     */
    static Optional<RequestState> leaderFor(RequestState request, List<RequestState> running, PrefixCache cache) {
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
    static boolean settled(RequestState leader) {
        return !leader.prefillingItself();
    }

    /** The tokens in the full blocks at the start of {@code a} and {@code b} that are equal. */
    private static int commonBlockTokens(int[] a, int[] b) {
        int mismatch = Arrays.mismatch(a, b);
        int same = mismatch < 0 ? a.length : mismatch;
        return same / PrefixBlocks.TOKENS * PrefixBlocks.TOKENS;
    }
}
