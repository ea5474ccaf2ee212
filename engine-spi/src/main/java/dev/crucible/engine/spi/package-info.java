/**
 * The engine plugin contract: providers found by ServiceLoader, their capabilities and health, and the model runner
 * that turns token batches into logits over per-sequence KV caches.
 */
package dev.crucible.engine.spi;
