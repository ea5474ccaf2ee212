package dev.crucible.runtime.training;

/**
 * What {@link PolicyObjective} needs of an RL job's settings: which loss, its clip range and importance ratio, and the
 * corrections to the ratio and the advantage.
 *
 * @param ppo                        PPO's {@code -min(r A, clip(r) A)}, else CISPO's {@code -clip(r) A new}
 * @param epsilon                    lower clip width
 * @param epsilonHigh                upper clip width
 * @param importanceSamplingLevel    {@code token}, {@code sequence}, {@code average} or {@code geometric_average}
 * @param maxNegativeAdvantageWeight upper clamp on the ratio, or null
 * @param maskProbRatio              zero the ratio outside the clip range
 * @param klPenaltyCoef              weight of the KL penalty against the reference policy (used when one is given)
 * @param kimiK2Tau                  advantage correction, or null
 */
public record PolicyLoss(boolean ppo, double epsilon, double epsilonHigh, String importanceSamplingLevel,
        Double maxNegativeAdvantageWeight, boolean maskProbRatio, double klPenaltyCoef, Double kimiK2Tau) {
}
