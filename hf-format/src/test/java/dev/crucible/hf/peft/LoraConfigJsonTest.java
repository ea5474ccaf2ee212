package dev.crucible.hf.peft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.hf.ModelFormatException;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class LoraConfigJsonTest {

    @Test
    void writtenConfigsReadBackTheSame() {
        LoraConfig config = new LoraConfig(16, 32, EnumSet.of(LoraTarget.V_PROJ, LoraTarget.Q_PROJ), true);

        String json = LoraConfigJson.toJson(config);

        assertEquals(config, LoraConfigJson.parse(json));
        assertTrue(json.contains("\"target_modules\": [\n    \"q_proj\",\n    \"v_proj\"\n  ]"), json);
        assertTrue(json.contains("\"lora_alpha\": 32,"), json);
    }

    @Test
    void scalingIsAlphaOverRankOrOverItsRootWithRslora() {
        assertEquals(2.0, LoraConfig.allProjections(8, 16).scaling());
        assertEquals(4.0, new LoraConfig(16, 16, EnumSet.of(LoraTarget.UP_PROJ), true).scaling());
    }

    @Test
    void readsWhatPeftWritesIgnoringTrainingSettingsAndDefaultingAlphaToEight() {
        LoraConfig config = LoraConfigJson.parse("""
                {"peft_type": "LORA", "r": 4, "lora_dropout": 0.05, "target_modules": ["down_proj", "k_proj"],
                 "use_dora": false, "rank_pattern": {}, "alpha_pattern": {}, "layers_to_transform": null,
                 "modules_to_save": null, "bias": "none", "init_lora_weights": true}""");

        assertEquals(new LoraConfig(4, 8, EnumSet.of(LoraTarget.K_PROJ, LoraTarget.DOWN_PROJ), false), config);
    }

    @Test
    void refusesWhatItCannotComputeNamingTheKey() {
        assertRefused("{\"r\": 8, \"target_modules\": [\"q_proj\"], \"rank_pattern\": {\"q_proj\": 4}}",
                "'rank_pattern' is set");
        assertRefused("{\"r\": 8, \"target_modules\": [\"embed_tokens\"]}", "'target_modules' names 'embed_tokens'");
        assertRefused("{\"r\": 8, \"target_modules\": []}", "'target_modules' must name at least one module");
        assertRefused("{\"r\": 2.5, \"target_modules\": [\"q_proj\"]}", "'r' must be a positive integer, got 2.5");
        assertRefused("{\"r\": 8}", "missing required key 'target_modules'");
        assertRefused("{\"r\": 8, \"lora_alpha\": -1, \"target_modules\": [\"q_proj\"]}", "'lora_alpha'");
        assertRefused("{\"peft_type\": \"IA3\", \"r\": 8, \"target_modules\": [\"q_proj\"]}", "'peft_type'");
        assertRefused("{\"r\": 8, \"target_modules\": [\"q_proj\"], \"bias\": \"all\"}", "'bias'");
    }

    private static void assertRefused(String json, String expected) {
        var e = assertThrows(ModelFormatException.class, () -> LoraConfigJson.parse(json));
        assertTrue(e.getMessage().startsWith("adapter_config.json: ") && e.getMessage().contains(expected),
                e.getMessage());
    }
}
