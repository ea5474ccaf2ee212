package dev.crucible.adapters.http.inference;

import dev.crucible.application.inference.chat.ask.ChatStopping;
import dev.crucible.application.inference.chat.ask.ChatStopping.RepetitionDetection;
import java.math.BigInteger;
import java.util.List;
import java.util.OptionalLong;

/**
 * Reads the length and stop fields (schema and the {@code repetition_detection} parameter checks; ranges are
 * the use case's). {@code max_completion_tokens} wins over the deprecated {@code max_tokens}; {@code stop} may
 * be one string or a list of at most {@value #MAX_STOP_STRINGS} (vLLM main's {@code VLLM_MAX_STOP_STRINGS} default).
 */
final class StoppingReader {

    /** vLLM main's default {@code VLLM_MAX_STOP_STRINGS}. */
    static final int MAX_STOP_STRINGS = 4;

    private StoppingReader() {
    }

    static ChatStopping read(ChatFields f) {
        OptionalLong maxTokens = OptionalLong.empty();
        String param = "max_tokens";
        var completion = f.integer("max_completion_tokens");
        var legacy = f.integer("max_tokens");
        if (completion.isPresent()) {
            maxTokens = OptionalLong.of(completion.get());
            param = "max_completion_tokens";
        } else if (legacy.isPresent()) {
            maxTokens = OptionalLong.of(legacy.get());
        }
        long minTokens = f.integer("min_tokens").orElse(0L);
        List<Integer> stopIds = f.elements("stop_token_ids",
                (v, at) -> Int64.toInt(LaxValues.saturate(LaxValues.asInteger(v, at)))).orElse(List.of());
        OptionalLong truncate = Int64.read(f, "truncate_prompt_tokens", BigInteger.valueOf(-1), Int64.MAX);
        return new ChatStopping(maxTokens, param, minTokens, stop(f), stopIds, f.bool("ignore_eos", false),
                f.bool("include_stop_str_in_output", false), truncate, repetition(f));
    }

    private static List<String> stop(ChatFields f) {
        Object stop = f.get("stop");
        if (stop == null) {
            return List.of();
        }
        if (stop instanceof String s) {
            return List.of(s);
        }
        List<String> stops = f.elements("stop", LaxValues::asString).orElseThrow();
        if (stops.size() > MAX_STOP_STRINGS) {
            throw SchemaError.of(f.loc("stop"), "too_long", "List should have at most " + MAX_STOP_STRINGS
                    + " items after validation, not " + stops.size(), stop,
                    SchemaError.ctx("field_type", "List", "max_length", MAX_STOP_STRINGS, "actual_length", stops.size()));
        }
        return stops;
    }

    private static RepetitionDetection repetition(ChatFields f) {
        var child = f.child("repetition_detection");
        if (child.isEmpty()) {
            return RepetitionDetection.OFF;
        }
        ChatFields r = child.get();
        long max = r.integer("max_pattern_size").orElse(0L);
        long min = r.integer("min_pattern_size").orElse(0L);
        long count = r.integer("min_count").orElse(0L);
        if (max < 0 || min < 0 || min > max) {
            throw ProtocolChecks.fail("repetition_detection", "max_pattern_size, min_pattern_size must be >=0, with "
                    + "min_pattern_size <= max_pattern_size. Set both to 0 to disable repetitive pattern detection.");
        }
        if (max > 0 && count < 2) {
            throw ProtocolChecks.fail("repetition_detection", "min_count must be >= 2 to detect repetitive patterns "
                    + "in engine output. If you do not wish to detect repetitive patterns, set max_pattern_size to 0.");
        }
        return new RepetitionDetection(max, min, count);
    }
}
