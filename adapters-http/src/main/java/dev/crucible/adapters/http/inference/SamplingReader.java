package dev.crucible.adapters.http.inference;

import dev.crucible.application.inference.chat.ask.ChatSampling;
import dev.crucible.kernel.python.PythonRepr;
import dev.crucible.kernel.refusal.RefusalException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * Reads the sampling fields (schema only; ranges are the use case's): a {@code seed} of -1 is no seed, and
 * {@code logit_bias} keys must be integers, its values clamped to [-100, 100] as vLLM's {@code from_optional} does.
 */
final class SamplingReader {

    private static final double MAX_BIAS = 100;

    private SamplingReader() {
    }

    static ChatSampling read(ChatFields f) {
        OptionalLong seed = Int64.read(f, "seed");
        if (seed.isPresent() && seed.getAsLong() == -1) {
            seed = OptionalLong.empty();
        }
        Optional<List<Integer>> allowed = f.elements("allowed_token_ids",
                (v, at) -> Int64.toInt(LaxValues.saturate(LaxValues.asInteger(v, at))));
        List<String> badWords = f.elements("bad_words", LaxValues::asString).orElse(List.of());
        return new ChatSampling(f.number("temperature"), f.number("top_p"),
                f.integer("top_k").map(Int64::toInt), f.number("min_p"), f.number("presence_penalty"),
                f.number("frequency_penalty"), f.number("repetition_penalty"),
                Int64.toInt(f.integer("n").orElse(1L)), seed, logitBias(f), allowed, badWords,
                f.bool("use_beam_search", false), f.number("length_penalty").orElse(1.0));
    }

    private static Map<Integer, Double> logitBias(ChatFields f) {
        Map<String, Object> raw = f.object("logit_bias").orElse(Map.of());
        Map<Integer, Double> out = new LinkedHashMap<>();
        List<String> bad = new ArrayList<>();
        raw.forEach((key, value) -> {
            double bias = LaxValues.asDouble(value, f.loc("logit_bias", key));
            Integer id = tokenId(key);
            if (id == null) {
                bad.add(key);
            } else {
                out.put(id, Math.max(-MAX_BIAS, Math.min(MAX_BIAS, bias)));
            }
        });
        if (!bad.isEmpty()) {
            throw RefusalException.invalid("logit_bias", "logit_bias contains key(s) that cannot be converted to "
                    + "integer token IDs: " + bad.stream().map(PythonRepr::string).collect(Collectors.joining(", ", "[", "]")));
        }
        return out;
    }

    /** Python's {@code int(key)} for a token id; null when it does not parse or cannot be an id. */
    private static Integer tokenId(String key) {
        String s = key.strip().replace("_", "");
        if (!s.matches("[+-]?\\d+") || key.strip().startsWith("_") || key.strip().endsWith("_")) {
            return null;
        }
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
