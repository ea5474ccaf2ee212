/**
 * The loss functions of the training primitives (Tinker's {@code cross_entropy}, {@code importance_sampling},
 * {@code ppo}, {@code cispo}, {@code dro}) as {@link dev.crucible.engine.spi.TokenObjective}s: sums over every
 * position of every datum, never means, each with its exact gradient with respect to the learner's log-probabilities.
 */
package dev.crucible.runtime.training.loss;
