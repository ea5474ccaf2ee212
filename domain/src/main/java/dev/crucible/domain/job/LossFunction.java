package dev.crucible.domain.job;

/** RL policy loss: CISPO (clipped importance-sampled REINFORCE, the default) or PPO clipping. */
public enum LossFunction { CISPO, PPO }
