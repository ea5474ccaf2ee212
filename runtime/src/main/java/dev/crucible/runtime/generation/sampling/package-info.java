/** Sampling parameters as vLLM validates them, and the per-sequence sampler that processes logits in vLLM V1's order. */
package dev.crucible.runtime.generation.sampling;
