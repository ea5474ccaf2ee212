/** Beam search as vLLM runs it, above the generator: each step asks for every live beam's most likely next tokens, keeps the best beams by cumulative logprob, and ranks the finished ones by a length-penalised score. */
package dev.crucible.runtime.generation.beam;
