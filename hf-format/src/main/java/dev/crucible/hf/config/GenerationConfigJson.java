package dev.crucible.hf.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;

/** Reads and writes {@code generation_config.json}. Stateless and thread-safe. */
public final class GenerationConfigJson {

    private static final String FILE = "generation_config.json";

    private GenerationConfigJson() {
    }

    /** Reads {@code generation_config.json} from a model folder; {@link GenerationConfig#NONE} when there is none. */
    public static GenerationConfig read(Path modelDir) throws IOException {
        Path file = modelDir.resolve(FILE);
        return Files.exists(file) ? parse(Files.readString(file)) : GenerationConfig.NONE;
    }

    /** Parses the text of a {@code generation_config.json}; a mistyped key fails naming it. */
    public static GenerationConfig parse(String json) {
        JsonFields f = new JsonFields(HfJson.parse(json, FILE), FILE);
        var bos = f.intOrIntList("bos_token_id");
        var pad = f.intOrIntList("pad_token_id");
        return new GenerationConfig(first(bos), f.intOrIntList("eos_token_id"), first(pad),
                f.optionalBoolean("do_sample"), f.optionalDouble("temperature"), f.optionalDouble("top_p"),
                f.optionalInt("top_k"), f.optionalDouble("min_p"), f.optionalDouble("repetition_penalty"),
                f.optionalInt("max_new_tokens"), f.optionalInt("max_length"));
    }

    /** The configuration as transformers writes it; absent values are left out. */
    public static String toJson(GenerationConfig g) {
        ObjectNode o = HfJson.object();
        g.bosTokenId().ifPresent(v -> o.put("bos_token_id", v));
        g.doSample().ifPresent(v -> o.put("do_sample", v));
        if (g.eosTokenIds().size() == 1) {
            o.put("eos_token_id", g.eosTokenIds().getFirst());
        } else if (!g.eosTokenIds().isEmpty()) {
            g.eosTokenIds().forEach(o.putArray("eos_token_id")::add);
        }
        g.maxLength().ifPresent(v -> o.put("max_length", v));
        g.maxNewTokens().ifPresent(v -> o.put("max_new_tokens", v));
        g.minP().ifPresent(v -> o.put("min_p", v));
        g.padTokenId().ifPresent(v -> o.put("pad_token_id", v));
        g.repetitionPenalty().ifPresent(v -> o.put("repetition_penalty", v));
        g.temperature().ifPresent(v -> o.put("temperature", v));
        g.topK().ifPresent(v -> o.put("top_k", v));
        g.topP().ifPresent(v -> o.put("top_p", v));
        return HfJson.pretty(o);
    }

    private static OptionalInt first(List<Integer> ids) {
        return ids.isEmpty() ? OptionalInt.empty() : OptionalInt.of(ids.getFirst());
    }
}
