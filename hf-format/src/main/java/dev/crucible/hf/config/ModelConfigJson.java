package dev.crucible.hf.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads and writes {@code config.json}. Keys transformers defaults are defaulted as transformers does; a missing
 * required key, a mistyped value, an unsupported architecture, activation or feature fails with a
 * {@link dev.crucible.hf.ModelFormatException} naming it. Stateless and thread-safe.
 */
public final class ModelConfigJson {

    private static final String FILE = "config.json";

    private ModelConfigJson() {
    }

    /** Reads {@code config.json} (the file itself, or the model folder holding it). */
    public static ModelConfig read(Path path) throws IOException {
        Path file = Files.isDirectory(path) ? path.resolve(FILE) : path;
        return parse(Files.readString(file));
    }

    /** Parses the text of a {@code config.json}. */
    public static ModelConfig parse(String json) {
        JsonFields f = new JsonFields(HfJson.parse(json, FILE), FILE);
        Architecture arch = architecture(f);
        refuseUnsupportedFeatures(f);
        int hidden = f.requiredInt("hidden_size");
        int heads = f.requiredInt("num_attention_heads");
        int vocab = f.requiredInt("vocab_size");
        Optional<JsonFields> ropeParameters = f.optionalObject("rope_parameters");
        double theta = f.optionalDouble("rope_theta").orElse(ropeParameters
                .map(p -> p.optionalDouble("rope_theta").orElse(10000.0)).orElse(10000.0));
        Optional<JsonFields> scaling = f.optionalObject("rope_scaling").or(() -> ropeParameters);
        if (hidden % heads != 0 && !f.has("head_dim")) {
            throw f.error("hidden_size (" + hidden + ") is not a multiple of num_attention_heads (" + heads
                    + ") and no head_dim is given");
        }
        return new ModelConfig(arch, hidden, f.requiredInt("intermediate_size"), f.requiredInt("num_hidden_layers"),
                heads, f.optionalInt("num_key_value_heads").orElse(heads),
                f.optionalInt("head_dim").orElse(hidden / heads), vocab, f.optionalDouble("rms_norm_eps").orElse(1e-6),
                theta, scaling.map(RopeScalingJson::parse).orElse(new RopeScaling.Unscaled()),
                f.optionalInt("max_position_embeddings").orElse(arch == Architecture.LLAMA ? 2048 : 32768),
                f.optionalBoolean("tie_word_embeddings").orElse(false),
                f.optionalBoolean("attention_bias").orElse(false), bosTokenId(f), f.intOrIntList("eos_token_id"),
                f.optionalString("torch_dtype").or(() -> f.optionalString("dtype")));
    }

    /** The config as transformers writes it: sorted keys, two-space indentation. */
    public static String toJson(ModelConfig c) {
        ObjectNode o = HfJson.object();
        o.putArray("architectures").add(c.architecture().className());
        if (c.architecture() != Architecture.QWEN2) {
            o.put("attention_bias", c.attentionBias());
        }
        c.bosTokenId().ifPresentOrElse(id -> o.put("bos_token_id", id), () -> o.putNull("bos_token_id"));
        if (c.eosTokenIds().size() == 1) {
            o.put("eos_token_id", c.eosTokenIds().getFirst());
        } else {
            c.eosTokenIds().forEach(o.putArray("eos_token_id")::add);
        }
        if (c.architecture() == Architecture.QWEN3 || c.headDim() != c.hiddenSize() / c.numAttentionHeads()) {
            o.put("head_dim", c.headDim());
        }
        o.put("hidden_act", "silu");
        o.put("hidden_size", c.hiddenSize());
        o.put("intermediate_size", c.intermediateSize());
        o.put("max_position_embeddings", c.maxPositionEmbeddings());
        o.put("model_type", c.architecture().modelType());
        o.put("num_attention_heads", c.numAttentionHeads());
        o.put("num_hidden_layers", c.numHiddenLayers());
        o.put("num_key_value_heads", c.numKeyValueHeads());
        o.put("rms_norm_eps", c.rmsNormEps());
        o.set("rope_scaling", RopeScalingJson.toJson(c.ropeScaling()));
        o.put("rope_theta", c.ropeTheta());
        o.put("tie_word_embeddings", c.tieWordEmbeddings());
        c.torchDtype().ifPresent(d -> o.put("torch_dtype", d));
        o.put("use_cache", true);
        o.put("vocab_size", c.vocabSize());
        return HfJson.pretty(o);
    }

    private static Architecture architecture(JsonFields f) {
        JsonNode classes = f.get("architectures");
        Optional<String> modelType = f.optionalString("model_type");
        if (classes == null || classes.isNull()) {
            return Architecture.fromModelType(modelType.orElseThrow(
                    () -> f.error("missing required key 'architectures' (or 'model_type')")));
        }
        if (!classes.isArray() || classes.isEmpty() || !classes.get(0).isTextual()) {
            throw f.error("'architectures' must be a non-empty list of class names, got " + classes);
        }
        Architecture arch = Architecture.fromClassName(classes.get(0).textValue());
        if (modelType.isPresent() && !modelType.get().equals(arch.modelType())) {
            throw f.error("model_type '" + modelType.get() + "' does not match architecture '" + arch.className() + "'");
        }
        return arch;
    }

    private static void refuseUnsupportedFeatures(JsonFields f) {
        Optional<String> act = f.optionalString("hidden_act");
        if (act.isPresent() && !act.get().equals("silu")) {
            throw f.error("unsupported hidden_act '" + act.get() + "' (supported: silu)");
        }
        if (f.optionalBoolean("mlp_bias").orElse(false)) {
            throw f.error("unsupported mlp_bias: true");
        }
        if (f.optionalBoolean("use_sliding_window").orElse(false)) {
            throw f.error("unsupported use_sliding_window: true (sliding-window attention)");
        }
    }

    private static OptionalInt bosTokenId(JsonFields f) {
        var ids = f.intOrIntList("bos_token_id");
        if (ids.size() > 1) {
            throw f.error("'bos_token_id' must be a single id, got " + ids);
        }
        return ids.isEmpty() ? OptionalInt.empty() : OptionalInt.of(ids.getFirst());
    }
}
