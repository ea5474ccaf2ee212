/** Byte-level BPE as Hugging Face tokenizers does it: a trainer, a tokenizer.json writer and a reference encoder. */
package dev.crucible.hf.tokenizer;
