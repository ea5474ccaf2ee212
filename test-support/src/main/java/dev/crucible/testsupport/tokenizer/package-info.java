/** Tokenizers for tests: a byte-level one over given token bytes, and a character-level one that also encodes. */
package dev.crucible.testsupport.tokenizer;
