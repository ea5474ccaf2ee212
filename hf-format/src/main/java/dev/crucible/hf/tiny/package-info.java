/** Small, deterministic, random-weight models in Hugging Face format, with a trained tokenizer and a chat template. */
package dev.crucible.hf.tiny;
