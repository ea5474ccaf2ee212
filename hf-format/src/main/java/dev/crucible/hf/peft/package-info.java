/** LoRA adapters in PEFT's folder format: {@code adapter_config.json} and {@code adapter_model.safetensors}. */
package dev.crucible.hf.peft;
