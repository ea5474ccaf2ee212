/** The model's configuration files: {@code config.json}, {@code generation_config.json}, {@code tokenizer_config.json}. */
package dev.crucible.hf.config;
