package dev.crucible.application.primitives;

import dev.crucible.kernel.invariant.NonNull;
import java.util.Arrays;
import java.util.List;

/**
 * What {@code asample} returns (Tinker's {@code SampleResponse}).
 *
 * @param sequences           the samples, {@code num_samples} of them
 * @param promptLogprobs      when asked for: one value per prompt position, {@code NaN} where there is none (the
 *                            first position); otherwise empty
 * @param topkPromptLogprobs  when asked for: one list per prompt position of the {@code k} likeliest tokens, an empty
 *                            list where there is none (the first position); otherwise empty
 * @param promptCacheHitTokens prompt tokens whose attention state was reused from an earlier request
 */
public record SampleOutput(List<Sequence> sequences, float[] promptLogprobs,
        List<List<TokenLogprob>> topkPromptLogprobs, int promptCacheHitTokens) {

    public SampleOutput {
        NonNull.components(SampleOutput.class, sequences, promptLogprobs, topkPromptLogprobs);
        sequences = List.copyOf(sequences);
        promptLogprobs = promptLogprobs.clone();
        topkPromptLogprobs = topkPromptLogprobs.stream().map(List::copyOf).toList();
    }

    @Override
    public float[] promptLogprobs() {
        return promptLogprobs.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SampleOutput s && sequences.equals(s.sequences)
                && Arrays.equals(promptLogprobs, s.promptLogprobs) && topkPromptLogprobs.equals(s.topkPromptLogprobs)
                && promptCacheHitTokens == s.promptCacheHitTokens;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * sequences.hashCode() + Arrays.hashCode(promptLogprobs)) + topkPromptLogprobs.hashCode();
    }

    @Override
    public String toString() {
        return "SampleOutput[" + sequences.size() + " sequences]";
    }

    /** Why a sample stopped: a stop string or token, or {@code max_tokens}. */
    public enum StopReason {
        STOP, LENGTH
    }

    /** One sample: its tokens and each token's log-probability under the sampler. */
    public record Sequence(int[] tokens, float[] logprobs, StopReason stopReason) {

        public Sequence {
            NonNull.components(Sequence.class, tokens, logprobs, stopReason);
            if (tokens.length != logprobs.length) {
                throw new IllegalArgumentException("one logprob per token: " + tokens.length + " tokens, "
                        + logprobs.length + " logprobs");
            }
            tokens = tokens.clone();
            logprobs = logprobs.clone();
        }

        @Override
        public int[] tokens() {
            return tokens.clone();
        }

        @Override
        public float[] logprobs() {
            return logprobs.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Sequence s && Arrays.equals(tokens, s.tokens) && Arrays.equals(logprobs, s.logprobs)
                    && stopReason == s.stopReason;
        }

        @Override
        public int hashCode() {
            return 31 * (31 * Arrays.hashCode(tokens) + Arrays.hashCode(logprobs)) + stopReason.hashCode();
        }

        @Override
        public String toString() {
            return "Sequence[" + tokens.length + " tokens, " + stopReason + "]";
        }
    }

    /** A token and its log-probability. */
    public record TokenLogprob(int token, float logprob) {
    }
}
