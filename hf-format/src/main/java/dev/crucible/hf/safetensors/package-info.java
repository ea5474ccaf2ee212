/** Safetensors weight files: memory-mapped reading (single or sharded, BF16/F16 widened to F32) and writing. */
package dev.crucible.hf.safetensors;
