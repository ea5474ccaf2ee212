/**
 * PyTorch through DJL: the forward pass of Llama, Qwen2 and Qwen3 over per-sequence KV caches, F32 weights mapped from
 * safetensors, LoRA and training. Only
 * {@link dev.crucible.engine.djl.DjlEngineProvider} is public; everything else is package-private.
 */
package dev.crucible.engine.djl;
