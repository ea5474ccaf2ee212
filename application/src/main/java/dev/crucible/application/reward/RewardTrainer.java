package dev.crucible.application.reward;

import dev.crucible.domain.reward.RewardExample;
import java.util.List;

/**
 * Fits a reward model (an out-port; a machine-learning library implements it). Thread-safe: fits may run at once.
 * Fitting is CPU work bounded by its inputs: callers bound the examples' count and sizes and the epochs.
 */
public interface RewardTrainer {

    /**
     * Fits a model that scores a good answer near 1 and a bad one near 0.
     *
     * @param train  the examples, with both labels among them; never empty
     * @param epochs passes over {@code train}, at least 1
     * @param seed   the random seed: the same examples, epochs and seed give the same artifact
     */
    RewardArtifact fit(List<RewardExample> train, int epochs, long seed);

    /** The features it extracts, in words, as the API reports them. */
    String features();

    /** The algorithm it fits, in words, as the API reports it. */
    String algorithm();
}
