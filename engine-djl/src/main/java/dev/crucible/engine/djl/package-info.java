/**
 * PyTorch through DJL: inference and LoRA training. The engine itself lands with the real-models issue; until
 * then no provider is registered, so Crucible reports training and inference as not available.
 */
package dev.crucible.engine.djl;
