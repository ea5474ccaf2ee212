package dev.crucible.adapters.http.inference;

import dev.crucible.application.inference.chat.ChatRequest;
import dev.crucible.application.inference.chat.ChatSampling;
import dev.crucible.domain.python.PythonNumbers;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The model-independent checks of vLLM's {@code SamplingParams._verify_args} and {@code _verify_greedy_sampling}, in
 * that order, with its messages. A range on a field the request left out is not checked here: the model's default
 * fills it in later. The {@code min_tokens <= max_tokens} check needs the effective budget, so it is
 * {@code ChatLimits}'; greedy sampling with {@code n > 1} is caught here only for an explicit temperature.
 */
final class RangeChecks {

    /** vLLM's default {@code VLLM_MAX_N_SEQUENCES}. */
    static final int MAX_N = 16384;
    /** Below this temperature vLLM samples greedily. */
    static final double GREEDY_EPSILON = 1e-5;

    private RangeChecks() {
    }

    static void check(ChatRequest request) {
        ChatSampling s = request.sampling();
        int n = s.n();
        fail(n < 1, "n", "n must be at least 1, got " + n + ".");
        fail(n > MAX_N, "n", "n must be at most " + MAX_N + ", got " + n
                + ". To increase this limit, set the VLLM_MAX_N_SEQUENCES environment variable.");
        penalty("presence_penalty", s.presencePenalty());
        penalty("frequency_penalty", s.frequencyPenalty());
        s.repetitionPenalty().ifPresent(r -> {
            fail(!Double.isFinite(r), "repetition_penalty", "repetition_penalty must be a finite number, got " + py(r) + ".");
            fail(r <= 0, "repetition_penalty", "repetition_penalty must be greater than zero, got " + py(r) + ".");
        });
        s.temperature().ifPresent(t -> {
            fail(!Double.isFinite(t), "temperature", "temperature must be a finite number, got " + py(t) + ".");
            fail(t < 0, "temperature", "temperature must be non-negative, got " + py(t) + ".");
            fail(t > 2, "temperature", "temperature must be in [0, 2], got " + py(t) + ".");
        });
        s.topP().ifPresent(p -> fail(!(p > 0 && p <= 1), "top_p", "top_p must be in (0, 1], got " + py(p) + "."));
        s.topK().ifPresent(k -> fail(k < -1, "top_k", "top_k must be 0 (disable), or at least 1, got " + k + "."));
        s.minP().ifPresent(p -> fail(!(p >= 0 && p <= 1), "min_p", "min_p must be in [0, 1], got " + py(p) + "."));
        request.stopping().maxTokens().ifPresent(m ->
                fail(m < 1, "max_tokens", "max_tokens must be at least 1, got " + m + "."));
        long minTokens = request.stopping().minTokens();
        fail(minTokens < 0, "min_tokens", "min_tokens must be greater than or equal to 0, got " + minTokens + ".");
        fail(request.stopping().stop().contains(""), "stop", "stop cannot contain an empty string.");
        fail(s.badWords().contains(""), "bad_words", "bad_words cannot contain an empty string. Got bad_words="
                + s.badWords().stream().map(PythonRepr::string).collect(Collectors.joining(", ", "[", "]")));
        fail(s.allowedTokenIds().isPresent() && s.allowedTokenIds().get().isEmpty(), "allowed_token_ids",
                "allowed_token_ids is not None and empty!");
        boolean greedy = s.temperature().isPresent() && s.temperature().get() < GREEDY_EPSILON;
        fail(greedy && n > 1, "n", "n must be 1 when using greedy sampling, got " + n + ".");
    }

    private static void penalty(String param, Optional<Double> value) {
        value.ifPresent(v -> fail(!(v >= -2 && v <= 2), param, param + " must be in [-2, 2], got " + py(v) + "."));
    }

    private static void fail(boolean failed, String param, String message) {
        if (failed) {
            throw ProtocolChecks.fail(param, message);
        }
    }

    /** Python's {@code repr} of a float, as vLLM's f-strings write it. */
    private static String py(double value) {
        return PythonNumbers.repr(value);
    }
}
