/**
 * Training jobs on a LoRA adapter: trajectories and SFT conversations turned into token sequences with the trained
 * positions marked, the losses (cross-entropy, PPO, CISPO) written once as {@link dev.crucible.engine.spi.TokenObjective}s,
 * and the job trainer that runs optimiser steps on an engine's {@link dev.crucible.engine.spi.LoraTrainer}, reports
 * events and stores the adapter as the model's next checkpoint.
 */
package dev.crucible.application.training;
