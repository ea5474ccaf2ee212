package dev.crucible.hf.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.hf.ModelFormatException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerationConfigJsonTest {

    /** Qwen2.5-Instruct's published generation_config.json. */
    private static final String QWEN = """
            {"bos_token_id": 151643, "pad_token_id": 151643, "do_sample": true, "eos_token_id": [151645, 151643],
             "repetition_penalty": 1.05, "temperature": 0.7, "top_p": 0.8, "top_k": 20,
             "transformers_version": "4.37.0"}
            """;

    @Test
    void readsSamplingDefaultsAndAnEosList() {
        GenerationConfig g = GenerationConfigJson.parse(QWEN);
        assertEquals(new GenerationConfig(OptionalInt.of(151643), List.of(151645, 151643), OptionalInt.of(151643),
                Optional.of(true), OptionalDouble.of(0.7), OptionalDouble.of(0.8), OptionalInt.of(20),
                OptionalDouble.empty(), OptionalDouble.of(1.05), OptionalInt.empty(), OptionalInt.empty()), g);
        assertEquals(g, GenerationConfigJson.parse(GenerationConfigJson.toJson(g)));
    }

    @Test
    void readsASingleEosIdAndMaxNewTokens() {
        GenerationConfig g = GenerationConfigJson.parse("{\"eos_token_id\": 2, \"max_new_tokens\": 64, \"min_p\": 0}");
        assertEquals(List.of(2), g.eosTokenIds());
        assertEquals(OptionalInt.of(64), g.maxNewTokens());
        assertEquals(OptionalDouble.of(0.0), g.minP());
    }

    @Test
    void aFolderWithoutTheFileHasNoDefaults(@TempDir Path dir) throws IOException {
        assertEquals(GenerationConfig.NONE, GenerationConfigJson.read(dir));
    }

    @Test
    void refusesAMistypedValueNamingTheKey() {
        var e = assertThrows(ModelFormatException.class,
                () -> GenerationConfigJson.parse("{\"temperature\": \"hot\"}"));
        assertEquals("generation_config.json: 'temperature' must be a number, got \"hot\"", e.getMessage());
    }
}
