package dev.crucible.hf.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.crucible.hf.HfJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads {@code tokenizer_config.json}: the chat template as a string or as a list of {@code {name, template}}, special
 * tokens as strings or AddedToken objects. Stateless and thread-safe.
 */
public final class TokenizerConfigJson {

    private static final String FILE = "tokenizer_config.json";
    private static final String TEMPLATE_FILE = "chat_template.jinja";

    private TokenizerConfigJson() {
    }

    /**
     * Reads a model folder's tokenizer configuration. As in transformers, a {@code chat_template.jinja} file wins over
     * the default template inside {@code tokenizer_config.json}. {@link TokenizerConfig#NONE} when neither exists.
     */
    public static TokenizerConfig read(Path modelDir) throws IOException {
        Path file = modelDir.resolve(FILE);
        TokenizerConfig config = Files.exists(file) ? parse(Files.readString(file)) : TokenizerConfig.NONE;
        Path template = modelDir.resolve(TEMPLATE_FILE);
        if (!Files.exists(template)) {
            return config;
        }
        Map<String, String> templates = new LinkedHashMap<>(config.chatTemplates());
        templates.put(TokenizerConfig.DEFAULT_TEMPLATE, Files.readString(template));
        return new TokenizerConfig(templates, config.bosToken(), config.eosToken(), config.padToken(),
                config.unkToken(), config.addBosToken(), config.addEosToken());
    }

    /** Parses the text of a {@code tokenizer_config.json}; a mistyped key fails naming it. */
    public static TokenizerConfig parse(String json) {
        JsonFields f = new JsonFields(HfJson.parse(json, FILE), FILE);
        return new TokenizerConfig(templates(f), token(f, "bos_token"), token(f, "eos_token"), token(f, "pad_token"),
                token(f, "unk_token"), f.optionalBoolean("add_bos_token"), f.optionalBoolean("add_eos_token"));
    }

    private static Map<String, String> templates(JsonFields f) {
        Map<String, String> templates = new LinkedHashMap<>();
        if (!f.has("chat_template")) {
            return templates;
        }
        JsonNode t = f.get("chat_template");
        if (t.isTextual()) {
            templates.put(TokenizerConfig.DEFAULT_TEMPLATE, t.textValue());
            return templates;
        }
        if (!t.isArray()) {
            throw f.error("'chat_template' must be a string or a list of {name, template}, got " + t.getNodeType());
        }
        for (JsonNode entry : t) {
            JsonNode name = entry.get("name");
            JsonNode template = entry.get("template");
            if (name == null || !name.isTextual() || template == null || !template.isTextual()) {
                throw f.error("each 'chat_template' entry must have string 'name' and 'template'");
            }
            templates.put(name.textValue(), template.textValue());
        }
        return templates;
    }

    /** A special token given as a string, an AddedToken object ({@code {"content": ...}}) or null. */
    private static Optional<String> token(JsonFields f, String key) {
        if (!f.has(key)) {
            return Optional.empty();
        }
        JsonNode v = f.get(key);
        if (v.isTextual()) {
            return Optional.of(v.textValue());
        }
        JsonNode content = v.get("content");
        if (v.isObject() && content != null && content.isTextual()) {
            return Optional.of(content.textValue());
        }
        throw f.error("'" + key + "' must be a string or an object with a string 'content', got " + v);
    }
}
