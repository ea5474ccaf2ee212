package dev.crucible.runtime.training;

import dev.crucible.engine.spi.TrainingSequence;
import java.util.Objects;

/**
 * One tokenised conversation of a trajectory, ready for the policy loss.
 *
 * @param sequence   the tokens and trained positions
 * @param logprobs   the sampler's log-probability of each trained token, NaN where unknown (then taken as on-policy)
 * @param advantage  the trajectory's advantage, balanced and normalised
 * @param weight     each trained token's weight: the inverse of the trajectory's trained tokens, rescaled so the
 *                   mean over every trained token of the job is 1
 * @param trajectory which trajectory of the job it came from (for the learning-rate power of ART)
 */
public record RlSequence(TrainingSequence sequence, float[] logprobs, double advantage, double weight, int trajectory) {

    public RlSequence {
        Objects.requireNonNull(sequence, "sequence");
        Objects.requireNonNull(logprobs, "logprobs");
        if (logprobs.length != sequence.targetCount()) {
            throw new IllegalArgumentException("logprobs must have one value per target, got " + logprobs.length
                    + " for " + sequence.targetCount());
        }
    }

    RlSequence with(double newAdvantage, double newWeight) {
        return new RlSequence(sequence, logprobs, newAdvantage, newWeight, trajectory);
    }

    public RlSequence withLogprobs(float[] newLogprobs) {
        return new RlSequence(sequence, newLogprobs, advantage, weight, trajectory);
    }
}
