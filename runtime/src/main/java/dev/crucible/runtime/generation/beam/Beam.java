package dev.crucible.runtime.generation.beam;

import dev.crucible.runtime.generation.logprobs.PositionLogprobs;
import dev.crucible.runtime.generation.logprobs.TokenLogprob;
import java.util.ArrayList;
import java.util.List;

/**
 * One beam: the tokens it generated and their cumulative logprob.
 *
 * @param tokenIds          the generated tokens, a final EOS included when {@code endedByEos}
 * @param logprobs          one entry per generated token: the token's logprob and its step's answer (at least the
 *                          candidates), most likely first
 * @param cumulativeLogprob the sum of the generated tokens' logprobs, EOS included
 * @param endedByEos        whether the beam finished with the EOS token (else it ran to the token budget)
 */
public record Beam(List<Integer> tokenIds, List<PositionLogprobs> logprobs, double cumulativeLogprob,
        boolean endedByEos) {

    /** The beam before the first step: nothing generated. */
    static final Beam START = new Beam(List.of(), List.of(), 0.0, false);

    /** Copies the lists; one logprobs entry per token. */
    public Beam {
        tokenIds = List.copyOf(tokenIds);
        logprobs = List.copyOf(logprobs);
        if (tokenIds.size() != logprobs.size()) {
            throw new IllegalArgumentException("one logprobs entry per token: " + tokenIds.size() + " tokens, "
                    + logprobs.size() + " entries");
        }
    }

    /**
     * vLLM's {@code get_beam_search_score}: {@code cumulativeLogprob / length^lengthPenalty}, where the length counts
     * the prompt and the generated tokens but not a final EOS (and is at least 1).
     */
    public double score(int promptLength, double lengthPenalty) {
        int length = Math.max(1, promptLength + tokenIds.size() - (endedByEos ? 1 : 0));
        return cumulativeLogprob / Math.pow(length, lengthPenalty);
    }

    /** This beam followed by {@code token}, chosen among {@code candidates}; {@code eos} says whether it ends it. */
    Beam extend(TokenLogprob token, List<TokenLogprob> candidates, boolean eos) {
        List<Integer> ids = new ArrayList<>(tokenIds);
        ids.add(token.tokenId());
        List<PositionLogprobs> positions = new ArrayList<>(logprobs);
        positions.add(new PositionLogprobs(token, candidates));
        return new Beam(ids, positions, cumulativeLogprob + token.logprob(), eos);
    }

    /** {@code prompt} followed by this beam's tokens. */
    int[] sequence(int[] prompt) {
        int[] sequence = new int[prompt.length + tokenIds.size()];
        System.arraycopy(prompt, 0, sequence, 0, prompt.length);
        for (int i = 0; i < tokenIds.size(); i++) {
            sequence[prompt.length + i] = tokenIds.get(i);
        }
        return sequence;
    }
}
