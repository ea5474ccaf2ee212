/** Base models loaded for serving: runner, tokenizer, chat template and generation defaults together. */
package dev.crucible.application.inference.serving;
