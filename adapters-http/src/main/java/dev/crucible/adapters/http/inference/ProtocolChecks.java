package dev.crucible.adapters.http.inference;

import dev.crucible.kernel.python.PythonTruth;
import dev.crucible.kernel.refusal.RefusalException;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/**
 * vLLM's {@code mode="before"} model validators of {@code ChatCompletionRequest}, run on the raw body before any
 * field is typed, in vLLM's order: cache_salt, stream_options, logprobs, structured-output count, tool usage
 * ({@link ToolChoiceChecks}), generation prompt, response_format. Messages are vLLM's (without the
 * {@code " (parameter=…)"} suffix its exception string adds); {@code param} names the field.
 */
final class ProtocolChecks {

    private static final BigInteger MINUS_ONE = BigInteger.valueOf(-1);

    private ProtocolChecks() {
    }

    static void check(ChatFields body) {
        cacheSalt(body.get("cache_salt"));
        if (PythonTruth.of(body.get("stream_options")) && !PythonTruth.of(body.get("stream"))) {
            throw fail("stream_options", "Stream options can only be defined when `stream=True`.");
        }
        logprobs(body);
        structuredOutputs(body);
        ToolChoiceChecks.usage(body);
        if (PythonTruth.of(body.get("continue_final_message")) && PythonTruth.of(body.get("add_generation_prompt"))) {
            throw fail("continue_final_message",
                    "Cannot set both `continue_final_message` and `add_generation_prompt` to True.");
        }
        if (body.get("response_format") instanceof Map<?, ?> format && "json_schema".equals(format.get("type"))
                && format.get("json_schema") == null) {
            throw fail("response_format",
                    "When response_format type is 'json_schema', the 'json_schema' field must be provided.");
        }
    }

    static RefusalException fail(String param, String message) {
        return RefusalException.invalid(param, message);
    }

    private static void cacheSalt(Object salt) {
        if (salt == null) {
            return;
        }
        if (!(salt instanceof String s) || s.isEmpty()) {
            throw fail("cache_salt", "Parameter 'cache_salt' must be a non-empty string if provided.");
        }
        if (s.length() > 128 || s.contains("@") || s.contains("/") || s.contains("\\") || s.contains("\0")) {
            throw fail("cache_salt", "Parameter 'cache_salt' must be at most 128 characters and must not contain "
                    + "'@', '/', '\\\\', or NUL.");
        }
    }

    private static void logprobs(ChatFields body) {
        Object prompt = body.get("prompt_logprobs");
        if (prompt != null) {
            BigInteger p = integer(prompt, "prompt_logprobs");
            if (PythonTruth.of(body.get("stream")) && (p.signum() > 0 || p.equals(MINUS_ONE))) {
                throw fail("prompt_logprobs", "`prompt_logprobs` are not available when `stream=True`.");
            }
            if (p.compareTo(MINUS_ONE) < 0) {
                throw fail("prompt_logprobs", "`prompt_logprobs` must be a positive value or -1.");
            }
        }
        Object top = body.get("top_logprobs");
        if (top != null) {
            BigInteger t = integer(top, "top_logprobs");
            if (t.compareTo(MINUS_ONE) < 0) {
                throw fail("top_logprobs", "`top_logprobs` must be a positive value or -1.");
            }
            if (t.signum() != 0 && !PythonTruth.of(body.get("logprobs"))) {
                throw fail("top_logprobs", "when using `top_logprobs`, `logprobs` must be set to true.");
            }
        }
    }

    private static BigInteger integer(Object value, String param) {
        return switch (value) {
            case Integer i -> BigInteger.valueOf(i);
            case Long l -> BigInteger.valueOf(l);
            case BigInteger b -> b;
            default -> throw fail(param, "`" + param + "` must be an integer.");
        };
    }

    private static void structuredOutputs(ChatFields body) {
        if (!(body.get("structured_outputs") instanceof Map<?, ?> so)) {
            return;
        }
        long kinds = List.of("json", "regex", "choice").stream().filter(k -> so.get(k) != null).count();
        if (kinds > 1) {
            throw fail("structured_outputs", "You can only use one kind of constraints for structured outputs "
                    + "('json', 'regex' or 'choice').");
        }
        if (kinds == 1 && body.get("tool_choice") instanceof Map<?, ?>) {
            throw fail("structured_outputs",
                    "You can only either use constraints for structured outputs or tools, not both.");
        }
    }
}
