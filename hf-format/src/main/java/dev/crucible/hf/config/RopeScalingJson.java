package dev.crucible.hf.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;

/** {@code rope_scaling} (or transformers 5's {@code rope_parameters}) to and from JSON. */
final class RopeScalingJson {

    private RopeScalingJson() {
    }

    static RopeScaling parse(JsonFields f) {
        String type = f.optionalString("rope_type").or(() -> f.optionalString("type")).orElse("default");
        return switch (type) {
            case "default" -> new RopeScaling.Unscaled();
            case "llama3" -> new RopeScaling.Llama3(required(f, "factor"), required(f, "low_freq_factor"),
                    required(f, "high_freq_factor"), f.requiredInt("original_max_position_embeddings"));
            default -> throw f.error("unsupported rope scaling type '" + type + "' (supported: default, llama3)");
        };
    }

    static JsonNode toJson(RopeScaling scaling) {
        return switch (scaling) {
            case RopeScaling.Unscaled u -> NullNode.getInstance();
            case RopeScaling.Llama3 l -> {
                ObjectNode o = HfJson.object();
                o.put("factor", l.factor());
                o.put("high_freq_factor", l.highFreqFactor());
                o.put("low_freq_factor", l.lowFreqFactor());
                o.put("original_max_position_embeddings", l.originalMaxPositionEmbeddings());
                o.put("rope_type", "llama3");
                yield o;
            }
        };
    }

    private static double required(JsonFields f, String key) {
        return f.optionalDouble(key).orElseThrow(() -> f.error("missing required key '" + key + "'"));
    }
}
