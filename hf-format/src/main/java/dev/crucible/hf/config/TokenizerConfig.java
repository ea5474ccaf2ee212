package dev.crucible.hf.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code tokenizer_config.json} (and a {@code chat_template.jinja} beside it) says about chat templates and
 * special tokens. Immutable.
 *
 * @param chatTemplates the templates by name in file order; a template given as a plain string is named
 *                      {@value #DEFAULT_TEMPLATE}
 * @param bosToken      the beginning-of-sequence token's text, if any (the file gives a string or an AddedToken)
 * @param addBosToken   the {@code add_bos_token} flag, if stated; when absent, the tokenizer.json post-processor decides
 */
public record TokenizerConfig(Map<String, String> chatTemplates, Optional<String> bosToken, Optional<String> eosToken,
        Optional<String> padToken, Optional<String> unkToken, Optional<Boolean> addBosToken,
        Optional<Boolean> addEosToken) {

    /** The name transformers gives the template it uses when none is asked for. */
    public static final String DEFAULT_TEMPLATE = "default";

    /** The configuration of a model without {@code tokenizer_config.json}. */
    public static final TokenizerConfig NONE = new TokenizerConfig(Map.of(), Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    /** Rejects nulls; keeps the templates' order. */
    public TokenizerConfig {
        chatTemplates = Collections.unmodifiableMap(new LinkedHashMap<>(chatTemplates));
        Objects.requireNonNull(bosToken, "bosToken");
        Objects.requireNonNull(eosToken, "eosToken");
        Objects.requireNonNull(padToken, "padToken");
        Objects.requireNonNull(unkToken, "unkToken");
        Objects.requireNonNull(addBosToken, "addBosToken");
        Objects.requireNonNull(addEosToken, "addEosToken");
    }

    /** The default chat template, if the model has one. */
    public Optional<String> chatTemplate() {
        return chatTemplate(DEFAULT_TEMPLATE);
    }

    /** The chat template of that name (e.g. {@code tool_use}), if the model has one. */
    public Optional<String> chatTemplate(String name) {
        return Optional.ofNullable(chatTemplates.get(name));
    }
}
