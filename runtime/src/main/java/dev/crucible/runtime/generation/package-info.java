/** The engine-agnostic generation core: batched prefill and decoding over a {@code ModelRunner}, scheduling and prefill sharing, incremental detokenization and streaming deltas. */
package dev.crucible.runtime.generation;
