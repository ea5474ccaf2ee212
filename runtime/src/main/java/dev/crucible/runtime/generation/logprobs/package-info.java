/** Log-probabilities as a response reports them: each sampled token's with its alternatives, the prompt's with their ranks, and their token texts. */
package dev.crucible.runtime.generation.logprobs;
