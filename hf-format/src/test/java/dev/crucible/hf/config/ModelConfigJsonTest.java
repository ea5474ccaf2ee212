package dev.crucible.hf.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.hf.ModelFormatException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ModelConfigJsonTest {

    @Test
    void readsQwen2WithImplicitQkvBiasAndTiedEmbeddings() {
        ModelConfig c = ModelConfigJson.parse(Fixtures.text(Fixtures.QWEN2));
        assertEquals(new ModelConfig(Architecture.QWEN2, 896, 4864, 24, 14, 2, 64, 151936, 1e-6, 1e6,
                new RopeScaling.Unscaled(), 32768, true, false, OptionalInt.of(151643), List.of(151645),
                Optional.of("bfloat16")), c);
        assertTrue(c.qkvBias());
        assertFalse(c.outputBias());
        assertFalse(c.qkNorm());
        assertEquals(896, c.queryDim());
        assertEquals(128, c.keyValueDim());
    }

    @Test
    void readsQwen3WithItsExplicitHeadDimAndQkNorms() {
        ModelConfig c = ModelConfigJson.parse(Fixtures.text(Fixtures.QWEN3));
        assertEquals(Architecture.QWEN3, c.architecture());
        assertEquals(128, c.headDim());
        assertEquals(2048, c.queryDim());
        assertEquals(1024, c.keyValueDim());
        assertTrue(c.qkNorm());
        assertFalse(c.qkvBias());
        assertEquals(new RopeScaling.Unscaled(), c.ropeScaling());
        assertEquals(1e6, c.ropeTheta());
    }

    @Test
    void readsLlama31WithRopeScalingAndSeveralEosIds() {
        ModelConfig c = ModelConfigJson.parse(Fixtures.text(Fixtures.LLAMA));
        assertEquals(Architecture.LLAMA, c.architecture());
        assertEquals(new RopeScaling.Llama3(8.0, 1.0, 4.0, 8192), c.ropeScaling());
        assertEquals(List.of(128001, 128008, 128009), c.eosTokenIds());
        assertEquals(OptionalInt.of(128000), c.bosTokenId());
        assertEquals(128, c.headDim());
        assertEquals(1e-5, c.rmsNormEps());
        assertFalse(c.tieWordEmbeddings());
        assertFalse(c.qkvBias());
    }

    @ParameterizedTest
    @ValueSource(strings = {Fixtures.QWEN2, Fixtures.QWEN3, Fixtures.LLAMA})
    void writesWhatItReads(String fixture) {
        ModelConfig c = ModelConfigJson.parse(Fixtures.text(fixture));
        assertEquals(c, ModelConfigJson.parse(ModelConfigJson.toJson(c)));
    }

    @Test
    void refusesAnUnsupportedArchitectureNamingIt() {
        var e = assertThrows(ModelFormatException.class, () -> ModelConfigJson.parse(Fixtures.edited(Fixtures.LLAMA,
                o -> o.putArray("architectures").add("MistralForCausalLM"))));
        assertTrue(e.getMessage().contains("unsupported architecture 'MistralForCausalLM'"), e.getMessage());
        assertTrue(e.getMessage().contains("Qwen3ForCausalLM"), e.getMessage());
    }

    @Test
    void usesModelTypeWhenArchitecturesIsAbsent() {
        ModelConfig c = ModelConfigJson.parse(Fixtures.edited(Fixtures.QWEN3, o -> o.remove("architectures")));
        assertEquals(Architecture.QWEN3, c.architecture());
        var e = assertThrows(ModelFormatException.class, () -> ModelConfigJson.parse(Fixtures.edited(Fixtures.QWEN3,
                o -> o.put("model_type", "gemma3").remove("architectures"))));
        assertTrue(e.getMessage().contains("unsupported model_type 'gemma3'"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads",
            "vocab_size"})
    void refusesAMissingRequiredKeyNamingIt(String key) {
        var e = assertThrows(ModelFormatException.class,
                () -> ModelConfigJson.parse(Fixtures.edited(Fixtures.QWEN2, o -> o.remove(key))));
        assertEquals("config.json: missing required key '" + key + "'", e.getMessage());
    }

    @Test
    void refusesAMistypedValueNamingTheKey() {
        var e = assertThrows(ModelFormatException.class, () -> ModelConfigJson.parse(
                Fixtures.edited(Fixtures.QWEN2, o -> o.put("hidden_size", "large"))));
        assertEquals("config.json: 'hidden_size' must be an integer, got \"large\"", e.getMessage());
    }

    @Test
    void refusesUnsupportedRopeScalingAndActivation() {
        var rope = assertThrows(ModelFormatException.class, () -> ModelConfigJson.parse(Fixtures.edited(
                Fixtures.LLAMA, o -> o.putObject("rope_scaling").put("rope_type", "yarn").put("factor", 4.0))));
        assertTrue(rope.getMessage().contains("unsupported rope scaling type 'yarn'"), rope.getMessage());
        var act = assertThrows(ModelFormatException.class, () -> ModelConfigJson.parse(
                Fixtures.edited(Fixtures.LLAMA, o -> o.put("hidden_act", "gelu"))));
        assertTrue(act.getMessage().contains("unsupported hidden_act 'gelu'"), act.getMessage());
    }

    @Test
    void acceptsDefaultRopeScalingAndAppliesTransformersDefaults() {
        ModelConfig c = ModelConfigJson.parse(Fixtures.edited(Fixtures.LLAMA, o -> {
            o.putObject("rope_scaling").put("rope_type", "default");
            o.remove(List.of("rope_theta", "num_key_value_heads", "rms_norm_eps", "max_position_embeddings",
                    "tie_word_embeddings", "torch_dtype"));
        }));
        assertEquals(new RopeScaling.Unscaled(), c.ropeScaling());
        assertEquals(10000.0, c.ropeTheta());
        assertEquals(32, c.numKeyValueHeads());
        assertEquals(1e-6, c.rmsNormEps());
        assertEquals(2048, c.maxPositionEmbeddings());
        assertFalse(c.tieWordEmbeddings());
        assertEquals(Optional.empty(), c.torchDtype());
    }

    @Test
    void refusesHeadsThatDoNotGroupAndJsonThatIsNotJson() {
        var heads = assertThrows(ModelFormatException.class, () -> ModelConfigJson.parse(
                Fixtures.edited(Fixtures.QWEN2, o -> o.put("num_key_value_heads", 3))));
        assertTrue(heads.getMessage().contains("num_attention_heads (14) must be a multiple of num_key_value_heads (3)"),
                heads.getMessage());
        var json = assertThrows(ModelFormatException.class, () -> ModelConfigJson.parse("{\"hidden_size\": 1,"));
        assertTrue(json.getMessage().startsWith("config.json is not valid JSON"), json.getMessage());
    }
}
