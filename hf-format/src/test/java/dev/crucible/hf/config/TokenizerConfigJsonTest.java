package dev.crucible.hf.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.hf.ModelFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenizerConfigJsonTest {

    @Test
    void readsAStringTemplateAndStringTokens() {
        TokenizerConfig c = TokenizerConfigJson.parse("""
                {"add_bos_token": false, "bos_token": null, "eos_token": "<|im_end|>",
                 "pad_token": "<|endoftext|>", "unk_token": null, "chat_template": "{{ messages }}"}
                """);
        assertEquals(Optional.of("{{ messages }}"), c.chatTemplate());
        assertEquals(Optional.empty(), c.bosToken());
        assertEquals(Optional.of("<|im_end|>"), c.eosToken());
        assertEquals(Optional.of("<|endoftext|>"), c.padToken());
        assertEquals(Optional.of(false), c.addBosToken());
        assertEquals(Optional.empty(), c.addEosToken());
    }

    @Test
    void readsNamedTemplatesAndAddedTokenObjects() {
        TokenizerConfig c = TokenizerConfigJson.parse("""
                {"chat_template": [{"name": "default", "template": "A"}, {"name": "tool_use", "template": "B"}],
                 "bos_token": {"__type": "AddedToken", "content": "<s>", "lstrip": false, "normalized": true,
                               "rstrip": false, "single_word": false},
                 "eos_token": {"content": "</s>"}, "add_bos_token": true}
                """);
        assertEquals(List.of("default", "tool_use"), List.copyOf(c.chatTemplates().keySet()));
        assertEquals(Optional.of("A"), c.chatTemplate());
        assertEquals(Optional.of("B"), c.chatTemplate("tool_use"));
        assertEquals(Optional.of("<s>"), c.bosToken());
        assertEquals(Optional.of("</s>"), c.eosToken());
        assertEquals(Optional.of(true), c.addBosToken());
    }

    @Test
    void aChatTemplateFileWinsOverTheConfigsDefault(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("tokenizer_config.json"),
                "{\"chat_template\": [{\"name\": \"default\", \"template\": \"old\"}, "
                        + "{\"name\": \"rag\", \"template\": \"R\"}]}");
        Files.writeString(dir.resolve("chat_template.jinja"), "new");
        TokenizerConfig c = TokenizerConfigJson.read(dir);
        assertEquals(Map.of("default", "new", "rag", "R"), c.chatTemplates());
        assertEquals(TokenizerConfig.NONE, TokenizerConfigJson.read(dir.resolve("missing")));
    }

    @Test
    void refusesATemplateOrTokenOfTheWrongShape() {
        var template = assertThrows(ModelFormatException.class,
                () -> TokenizerConfigJson.parse("{\"chat_template\": 3}"));
        assertEquals("tokenizer_config.json: 'chat_template' must be a string or a list of {name, template}, got NUMBER",
                template.getMessage());
        var token = assertThrows(ModelFormatException.class,
                () -> TokenizerConfigJson.parse("{\"eos_token\": {\"id\": 2}}"));
        assertEquals("tokenizer_config.json: 'eos_token' must be a string or an object with a string 'content', "
                + "got {\"id\":2}", token.getMessage());
    }
}
