package dev.crucible.hf.peft;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.ModelFormatException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * Reads and writes PEFT's {@code adapter_config.json} for LoRA. Reading accepts what PEFT writes for a plain LoRA of
 * the {@link LoraTarget} projections ({@code lora_dropout} and other training-only keys are ignored) and refuses,
 * naming the key, what would change the computation in a way Crucible does not implement (DoRA, per-module ranks,
 * layer subsets, trained biases, extra saved modules). Stateless.
 */
public final class LoraConfigJson {

    /** The file name PEFT gives it. */
    public static final String FILE = "adapter_config.json";

    /** The largest file read: it is read whole into memory, and PEFT writes about a kilobyte. */
    public static final long MAX_BYTES = 1 << 20;

    private LoraConfigJson() {
    }

    /** Parses {@code adapter_config.json} text; every failure is a {@link ModelFormatException} naming the key. */
    public static LoraConfig parse(String json) {
        JsonNode root = HfJson.parse(json, FILE);
        if (!root.isObject()) {
            throw error("must be a JSON object");
        }
        JsonNode type = root.get("peft_type");
        if (present(type) && !"LORA".equals(type.asText())) {
            throw error("'peft_type' must be \"LORA\", got " + type);
        }
        refuseIfSet(root, "use_dora", "DoRA");
        refuseIfSet(root, "fan_in_fan_out", "fan_in_fan_out (Conv1D weights)");
        refuseIfSet(root, "layers_to_transform", "adapting only some layers");
        refuseIfSet(root, "rank_pattern", "per-module ranks");
        refuseIfSet(root, "alpha_pattern", "per-module alphas");
        refuseIfSet(root, "modules_to_save", "fully trained extra modules");
        JsonNode bias = root.get("bias");
        if (present(bias) && !"none".equals(bias.asText())) {
            throw error("'bias' must be \"none\" (trained biases are not supported), got " + bias);
        }
        JsonNode r = root.get("r");
        if (!present(r) || !r.canConvertToInt() || !r.isIntegralNumber() || r.intValue() < 1) {
            throw error("'r' must be a positive integer, got " + r);
        }
        // PEFT's LoraConfig defaults lora_alpha to 8.
        JsonNode alpha = root.get("lora_alpha");
        if (present(alpha) && (!alpha.isNumber() || !(alpha.doubleValue() > 0)
                || Double.isInfinite(alpha.doubleValue()))) {
            throw error("'lora_alpha' must be a positive number, got " + alpha);
        }
        JsonNode rslora = root.get("use_rslora");
        if (present(rslora) && !rslora.isBoolean()) {
            throw error("'use_rslora' must be true or false, got " + rslora);
        }
        return new LoraConfig(r.intValue(), present(alpha) ? alpha.doubleValue() : 8.0,
                targets(root.get("target_modules")), present(rslora) && rslora.booleanValue());
    }

    /** The JSON PEFT writes for {@code config} (a causal-LM LoRA in inference mode), with a trailing newline. */
    public static String toJson(LoraConfig config) {
        ObjectNode root = HfJson.object();
        root.put("peft_type", "LORA");
        root.put("task_type", "CAUSAL_LM");
        root.put("inference_mode", true);
        root.put("r", config.r());
        if (config.loraAlpha() == Math.rint(config.loraAlpha())) {
            root.put("lora_alpha", (long) config.loraAlpha());
        } else {
            root.put("lora_alpha", config.loraAlpha());
        }
        root.put("lora_dropout", 0.0);
        var modules = root.putArray("target_modules");
        config.targets().forEach(t -> modules.add(t.module()));
        root.put("use_rslora", config.useRslora());
        root.put("bias", "none");
        root.put("fan_in_fan_out", false);
        return HfJson.pretty(root);
    }

    private static Set<LoraTarget> targets(JsonNode node) {
        if (!present(node)) {
            throw error("missing required key 'target_modules'");
        }
        if (!node.isArray()) {
            throw error("'target_modules' must be a list of module names (supported: " + supported()
                    + "), got " + node);
        }
        if (node.isEmpty()) {
            throw error("'target_modules' must name at least one module, got []");
        }
        Set<LoraTarget> targets = EnumSet.noneOf(LoraTarget.class);
        for (JsonNode module : node) {
            if (!module.isTextual()) {
                throw error("'target_modules' must hold module names, got " + module);
            }
            targets.add(LoraTarget.of(module.textValue()).orElseThrow(() -> error("'target_modules' names '"
                    + module.textValue() + "', which is not supported (supported: " + supported() + ")")));
        }
        return targets;
    }

    private static void refuseIfSet(JsonNode root, String key, String what) {
        JsonNode v = root.get(key);
        boolean set = present(v) && !(v.isBoolean() && !v.booleanValue()) && !(v.isContainerNode() && v.isEmpty());
        if (set) {
            throw error("'" + key + "' is set (" + v + "), but " + what + " is not supported");
        }
    }

    private static boolean present(JsonNode v) {
        return v != null && !v.isNull();
    }

    private static String supported() {
        return Arrays.stream(LoraTarget.values()).map(LoraTarget::module).toList().toString();
    }

    private static ModelFormatException error(String message) {
        return new ModelFormatException(FILE + ": " + message);
    }
}
