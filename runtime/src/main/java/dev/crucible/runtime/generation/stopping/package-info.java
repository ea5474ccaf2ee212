/** When and why a sequence stops, as vLLM checks it: end-of-sequence ids, stop tokens, length, repetition and stop strings, and the finish they give. */
package dev.crucible.runtime.generation.stopping;
