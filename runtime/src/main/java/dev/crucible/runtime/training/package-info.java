/**
 * The pure parts of training preparation: trajectories and SFT conversations turned into token sequences with the
 * trained positions marked, advantages and packing, and the losses (cross-entropy, PPO, CISPO) written once as
 * {@link dev.crucible.engine.spi.TokenObjective}s.
 */
package dev.crucible.runtime.training;
