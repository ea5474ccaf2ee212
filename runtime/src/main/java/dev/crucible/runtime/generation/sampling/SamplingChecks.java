package dev.crucible.runtime.generation.sampling;

import dev.crucible.domain.python.PythonNumbers;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/** The range checks of vLLM's {@code SamplingParams._verify_args}, with its messages; each throws on failure. */
final class SamplingChecks {

    /** vLLM's default {@code --max-logprobs}. */
    static final int MAX_LOGPROBS = 20;
    /** vLLM's {@code VLLM_MAX_NUM_BAD_WORDS}. */
    static final int MAX_BAD_WORDS = 128;

    private SamplingChecks() {
    }

    static void fail(boolean failed, String param, String message) {
        if (failed) {
            throw new InvalidSamplingParamException(param, message);
        }
    }

    /** Python's {@code repr} of a float, as vLLM's f-strings write it. */
    static String py(double value) {
        return PythonNumbers.repr(value);
    }

    static void penalty(String param, double value) {
        fail(!(value >= -2 && value <= 2), param, param + " must be in [-2, 2], got " + py(value) + ".");
    }

    static void temperature(double t) {
        fail(!Double.isFinite(t), "temperature", "temperature must be a finite number, got " + py(t) + ".");
        fail(t < 0, "temperature", "temperature must be non-negative, got " + py(t) + ".");
        fail(t > 2, "temperature", "temperature must be in [0, 2], got " + py(t) + ".");
    }

    static void repetitionPenalty(double r) {
        fail(!Double.isFinite(r), "repetition_penalty", "repetition_penalty must be a finite number, got " + py(r) + ".");
        fail(r <= 0, "repetition_penalty", "repetition_penalty must be greater than zero, got " + py(r) + ".");
    }

    static void topP(double p) {
        fail(!(p > 0 && p <= 1), "top_p", "top_p must be in (0, 1], got " + py(p) + ".");
    }

    static void topK(int k) {
        fail(k < -1, "top_k", "top_k must be 0 (disable), or at least 1, got " + k + ".");
    }

    static void minP(double p) {
        fail(!(p >= 0 && p <= 1), "min_p", "min_p must be in [0, 1], got " + py(p) + ".");
    }

    static void tokens(int maxTokens, int minTokens) {
        fail(maxTokens < 1, "max_tokens", "max_tokens must be at least 1, got " + maxTokens + ".");
        fail(minTokens < 0, "min_tokens", "min_tokens must be greater than or equal to 0, got " + minTokens + ".");
        fail(minTokens > maxTokens, "min_tokens",
                "min_tokens must be less than or equal to max_tokens=" + maxTokens + ", got " + minTokens + ".");
    }

    static void logprobs(int topN) {
        fail(topN < 0, "top_logprobs", "`top_logprobs` must be a positive value or -1.");
        fail(topN > MAX_LOGPROBS, "top_logprobs", "Requested sample logprobs of " + topN
                + ", which is greater than max allowed: " + MAX_LOGPROBS);
    }

    static void promptLogprobs(int topN) {
        fail(topN < 0, "prompt_logprobs", "`prompt_logprobs` must be a positive value or -1.");
        fail(topN > MAX_LOGPROBS, "prompt_logprobs", "Requested prompt logprobs of " + topN
                + ", which is greater than max allowed: " + MAX_LOGPROBS);
    }

    static void stop(List<String> stop) {
        fail(stop.contains(""), "stop", "stop cannot contain an empty string.");
    }

    static void badWords(List<List<Integer>> badWords) {
        fail(badWords.stream().anyMatch(List::isEmpty), "bad_words",
                "bad_words entries must tokenize to at least one token.");
        fail(badWords.size() > MAX_BAD_WORDS, "bad_words", "Too many bad words after tokenization: "
                + badWords.size() + ". The max number is " + MAX_BAD_WORDS + ".");
    }

    static void n(int n, boolean greedy) {
        fail(n < 1, "n", "n must be at least 1, got " + n + ".");
        fail(greedy && n > 1, "n", "n must be 1 when using greedy sampling, got " + n + ".");
    }

    /** The ids of {@code ids} outside {@code [0, vocabSize)}, as Python prints a list; empty when none. */
    static String outOfVocab(Collection<Integer> ids, int vocabSize) {
        List<Integer> bad = ids.stream().filter(id -> id < 0 || id >= vocabSize).toList();
        return bad.isEmpty() ? "" : bad.stream().map(String::valueOf).collect(Collectors.joining(", ", "[", "]"));
    }
}
