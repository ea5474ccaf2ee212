package dev.crucible.runtime.generation.sampling;

import dev.crucible.kernel.python.PythonNumbers;
import dev.crucible.kernel.python.PythonRepr;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The range checks of vLLM's {@code SamplingParams._verify_args} (and {@code _verify_greedy_sampling}), with its
 * messages and the field each names: the one place they are written. {@link SamplingParams} runs them on the values
 * it samples with; the chat use case runs them on a request's own values before the model is even resolved, as
 * vLLM's protocol layer does. Each check throws on failure; {@link #refusing} turns the first failure into a refusal.
 */
public final class SamplingChecks {

    /** vLLM's default {@code VLLM_MAX_N_SEQUENCES}. */
    public static final int MAX_N = 16384;
    /** vLLM's default {@code --max-logprobs}. */
    static final int MAX_LOGPROBS = 20;
    /** vLLM's {@code VLLM_MAX_NUM_BAD_WORDS}. */
    static final int MAX_BAD_WORDS = 128;

    private SamplingChecks() {
    }

    /**
     * Runs {@code checks} and answers {@code value}, or the first check that failed as an invalid-field refusal
     * naming its field with vLLM's message.
     */
    public static <T> Outcome<T> refusing(Runnable checks, Supplier<T> value) {
        try {
            checks.run();
        } catch (InvalidSamplingParamException e) {
            return Outcome.refused(Refusal.invalid(e.param(), e.getMessage()));
        }
        return Outcome.done(value.get());
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

    public static void penalty(String param, double value) {
        fail(!(value >= -2 && value <= 2), param, param + " must be in [-2, 2], got " + py(value) + ".");
    }

    public static void temperature(double t) {
        fail(!Double.isFinite(t), "temperature", "temperature must be a finite number, got " + py(t) + ".");
        fail(t < 0, "temperature", "temperature must be non-negative, got " + py(t) + ".");
        fail(t > 2, "temperature", "temperature must be in [0, 2], got " + py(t) + ".");
    }

    public static void repetitionPenalty(double r) {
        fail(!Double.isFinite(r), "repetition_penalty", "repetition_penalty must be a finite number, got " + py(r) + ".");
        fail(r <= 0, "repetition_penalty", "repetition_penalty must be greater than zero, got " + py(r) + ".");
    }

    public static void topP(double p) {
        fail(!(p > 0 && p <= 1), "top_p", "top_p must be in (0, 1], got " + py(p) + ".");
    }

    public static void topK(int k) {
        fail(k < -1, "top_k", "top_k must be 0 (disable), or at least 1, got " + k + ".");
    }

    public static void minP(double p) {
        fail(!(p >= 0 && p <= 1), "min_p", "min_p must be in [0, 1], got " + py(p) + ".");
    }

    /** {@code n} is at most vLLM's {@link #MAX_N}. */
    public static void maxN(int n) {
        fail(n > MAX_N, "n", "n must be at most " + MAX_N + ", got " + n
                + ". To increase this limit, set the VLLM_MAX_N_SEQUENCES environment variable.");
    }

    public static void maxTokens(long maxTokens) {
        fail(maxTokens < 1, "max_tokens", "max_tokens must be at least 1, got " + maxTokens + ".");
    }

    public static void minTokens(long minTokens) {
        fail(minTokens < 0, "min_tokens", "min_tokens must be greater than or equal to 0, got " + minTokens + ".");
    }

    /**
     * {@code truncate_prompt_tokens}, when given, keeps at least one token ({@code -1} keeps as many as fit): vLLM's
     * {@code SamplingParams._verify_args} refuses 0, which would leave an empty prompt, and anything below -1.
     */
    public static void truncatePromptTokens(long truncate) {
        fail(truncate == 0 || truncate < -1, "truncate_prompt_tokens",
                "truncate_prompt_tokens must be an integer >= 1 or -1, got " + truncate);
    }

    static void tokens(int maxTokens, int minTokens) {
        maxTokens(maxTokens);
        minTokens(minTokens);
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

    public static void stop(List<String> stop) {
        fail(stop.contains(""), "stop", "stop cannot contain an empty string.");
    }

    /** The bad words as the request wrote them, before tokenisation: none may be empty. */
    public static void badWordTexts(List<String> words) {
        fail(words.contains(""), "bad_words", "bad_words cannot contain an empty string. Got bad_words="
                + words.stream().map(PythonRepr::string).collect(Collectors.joining(", ", "[", "]")));
    }

    /** {@code allowed_token_ids}, when given, names at least one token. */
    public static void allowedTokenIds(Optional<List<Integer>> ids) {
        fail(ids.map(List::isEmpty).orElse(false), "allowed_token_ids", "allowed_token_ids is not None and empty!");
    }

    static void badWords(List<List<Integer>> badWords) {
        fail(badWords.stream().anyMatch(List::isEmpty), "bad_words",
                "bad_words entries must tokenize to at least one token.");
        fail(badWords.size() > MAX_BAD_WORDS, "bad_words", "Too many bad words after tokenization: "
                + badWords.size() + ". The max number is " + MAX_BAD_WORDS + ".");
    }

    public static void n(int n, boolean greedy) {
        fail(n < 1, "n", "n must be at least 1, got " + n + ".");
        fail(greedy && n > 1, "n", "n must be 1 when using greedy sampling, got " + n + ".");
    }

    /**
     * Beam search's width {@code n}: each step asks for {@code 2 * n} logprobs per beam, which vLLM's engine refuses
     * above its logprobs limit with this message; here it names {@code n}, the field that caused it.
     */
    public static void beamWidth(int n) {
        fail(2L * n > MAX_LOGPROBS, "n", "Requested sample logprobs of " + 2L * n
                + ", which is greater than max allowed: " + MAX_LOGPROBS + " (use_beam_search asks for 2 * n logprobs "
                + "per step, so n may be at most " + MAX_LOGPROBS / 2 + ").");
    }

    /** The ids of {@code ids} outside {@code [0, vocabSize)}, as Python prints a list; empty when none. */
    static String outOfVocab(Collection<Integer> ids, int vocabSize) {
        List<Integer> bad = ids.stream().filter(id -> id < 0 || id >= vocabSize).toList();
        return bad.isEmpty() ? "" : bad.stream().map(String::valueOf).collect(Collectors.joining(", ", "[", "]"));
    }
}
