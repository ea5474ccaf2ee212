package dev.crucible.runtime.generation.logprobs;

import dev.crucible.hf.tokenizer.Tokenizer;
import dev.crucible.runtime.generation.sampling.Candidate;
import dev.crucible.runtime.generation.sampling.Sample;
import java.util.Optional;

/** Gives a sample's logprobs their token texts and bytes. Stateless apart from the tokenizer it reads. */
public final class LogprobTexts {

    private final Tokenizer tokenizer;

    public LogprobTexts(Tokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    /** The position's logprobs, or empty when the sample carries none. */
    public Optional<PositionLogprobs> of(Sample sample) {
        if (sample.logprob().isEmpty()) {
            return Optional.empty();
        }
        TokenLogprob sampled = token(new Candidate(sample.tokenId(), sample.logprob().getAsDouble()));
        return Optional.of(new PositionLogprobs(sampled, sample.top().stream().map(this::token).toList()));
    }

    private TokenLogprob token(Candidate candidate) {
        return token(candidate.tokenId(), candidate.logprob());
    }

    /** Token {@code id} with {@code logprob}, decoded on its own with special tokens kept. */
    public TokenLogprob token(int id, double logprob) {
        return new TokenLogprob(id, tokenizer.decode(new int[] {id}, false), tokenizer.tokenBytes(id), logprob);
    }
}
