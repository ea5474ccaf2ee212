package dev.crucible.runtime.generation.stopping;

import dev.crucible.runtime.generation.sampling.SamplingParams;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The token-level stop checks of vLLM's {@code check_stop}, after each token, in its order: nothing before
 * {@code min_tokens} (except the context length, which nothing may pass), EOS, stop token ids, length, repetition.
 * Immutable.
 */
public final class TokenStops {

    private final SamplingParams params;
    private final EndOfSequence eos;
    private final Set<Integer> stopTokenIds;
    private final int maxTotalTokens;

    public TokenStops(SamplingParams params, EndOfSequence eos, int promptLength, int maxModelLen) {
        this.params = params;
        this.eos = eos;
        Set<Integer> ids = new HashSet<>(params.stopTokenIds());
        if (!params.ignoreEos()) {
            ids.addAll(eos.extraEosTokenIds());
        }
        this.stopTokenIds = Set.copyOf(ids);
        this.maxTotalTokens = maxModelLen - promptLength;
    }

    /** The ids min_tokens hides: the EOS (unless ignore_eos) and every stop token id. */
    public Set<Integer> minTokensStopIds() {
        Set<Integer> ids = new HashSet<>(stopTokenIds);
        if (!params.ignoreEos()) {
            eos.eosTokenId().ifPresent(ids::add);
        }
        return ids;
    }

    /** Whether {@code finish} came from EOS or a stop token id, whose text vLLM leaves out. */
    public static boolean byStopToken(Finish finish) {
        return finish.reason() == FinishReason.STOP
                && finish.stopReason().map(r -> r instanceof StopReason.TokenId).orElse(true);
    }

    /** How the output (ending with its newest token) stops, if it does. */
    public Optional<Finish> check(List<Integer> output) {
        int count = output.size();
        boolean contextFull = count >= maxTotalTokens;
        if (count < params.minTokens()) {
            return contextFull ? Optional.of(Finish.of(FinishReason.LENGTH)) : Optional.empty();
        }
        int last = output.getLast();
        if (!params.ignoreEos() && eos.eosTokenId().isPresent() && eos.eosTokenId().getAsInt() == last) {
            return Optional.of(Finish.of(FinishReason.STOP));
        }
        if (stopTokenIds.contains(last)) {
            return Optional.of(Finish.of(FinishReason.STOP, new StopReason.TokenId(last)));
        }
        if (contextFull || count >= params.maxTokens()) {
            return Optional.of(Finish.of(FinishReason.LENGTH));
        }
        if (params.repetitionDetection().repeats(output)) {
            return Optional.of(Finish.of(FinishReason.REPETITION, new StopReason.RepetitionDetected()));
        }
        return Optional.empty();
    }
}
