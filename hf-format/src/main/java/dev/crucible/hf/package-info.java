/** Hugging Face model folders read and written in plain Java: config files, safetensors weights, tokenizer files. */
package dev.crucible.hf;
