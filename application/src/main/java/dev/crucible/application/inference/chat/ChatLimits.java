package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.chat.ask.ChatLogprobs;
import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.application.inference.chat.ask.ChatSampling;
import dev.crucible.application.inference.chat.ask.ChatStopping;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.Collection;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * The checks of a chat request that depend on the served model, with vLLM's messages, in vLLM's order: the context
 * checks of its renderer ({@code TokenizeParams}), the output budget ({@code get_max_tokens}), then the engine's
 * {@code SamplingParams.verify} (log-probability counts, vocabulary). Pure and thread-safe.
 *
 * <p>Budget rule (vLLM main, {@code vllm-chat.md} §3.3): the effective {@code max_tokens} is
 * {@code min(maxModelLen - keptPromptTokens, requested ?? generation-config default ?? unbounded)}; a
 * generation-config value is a fallback, never a ceiling. A prompt of no tokens is refused first, naming
 * {@code messages} (with {@code truncate_prompt_tokens} at least 1, truncation never empties a prompt). A prompt that fills the context leaves 0 and is refused
 * ({@code max_tokens must be at least 1, got 0.}).
 *
 * @param vocabSize   the model's vocabulary size
 * @param maxModelLen the model's context length in tokens
 * @param maxLogprobs the most log-probabilities a request may ask for (vLLM's {@code --max-logprobs}, default 20)
 */
public record ChatLimits(int vocabSize, int maxModelLen, int maxLogprobs) {

    /** vLLM's default {@code --max-logprobs}. */
    public static final int DEFAULT_MAX_LOGPROBS = 20;

    /** vLLM's message for a prompt of no tokens. */
    public static final String EMPTY_PROMPT = "The decoder prompt cannot be empty";

    /** Limits with the default {@code max_logprobs} of 20. */
    public static ChatLimits of(int vocabSize, int maxModelLen) {
        return new ChatLimits(vocabSize, maxModelLen, DEFAULT_MAX_LOGPROBS);
    }

    /** {@link #check(ChatRequest, int, OptionalInt)} without a generation-config default for max_tokens. */
    public Outcome<ChatBudget> check(ChatRequest request, int promptTokens) {
        return check(request, promptTokens, OptionalInt.empty());
    }

    /**
     * Checks {@code request} against this model for a templated prompt of {@code promptTokens} tokens (before
     * truncation) and returns the budget, or the first refusal.
     *
     * @param defaultMaxTokens the model's generation-config {@code max_tokens}, used when the request sets none
     */
    public Outcome<ChatBudget> check(ChatRequest request, int promptTokens, OptionalInt defaultMaxTokens) {
        if (promptTokens == 0) {
            // vLLM's input processor refuses a prompt that renders to no tokens at all (a template that writes
            // nothing, say): the engine needs at least one position to predict from
            return refuse("messages", EMPTY_PROMPT);
        }
        ChatStopping stopping = request.stopping();
        String param = stopping.maxTokensParam();
        long requested = stopping.maxTokens().orElse(0);
        if (requested > maxModelLen) {
            return refuse(param, param + "=" + requested + "cannot be greater than max_model_len=max_total_tokens="
                    + maxModelLen + ". Please request fewer output tokens.");
        }
        long maxInput = maxModelLen - requested;
        long kept = promptTokens;
        if (stopping.truncatePromptTokens().isPresent()) {
            long truncate = stopping.truncatePromptTokens().getAsLong();
            if (truncate > maxInput) {
                return refuse("truncate_prompt_tokens", "truncate_prompt_tokens=" + truncate
                        + " cannot be greater than max_model_len - " + param + " = " + maxInput
                        + ". Please request a smaller truncation size.");
            }
            kept = Math.min(promptTokens, truncate == -1 ? maxInput : truncate);
        }
        if (kept > maxInput) {
            return refuse("input_tokens", "You passed " + kept + " input tokens and requested " + requested
                    + " output tokens. However, the model's context length is only " + maxModelLen
                    + " tokens, resulting in a maximum input length of " + maxInput
                    + " tokens. Please reduce the length of the input prompt.");
        }
        long left = maxModelLen - kept;
        long wanted = stopping.maxTokens().isPresent() ? requested
                : defaultMaxTokens.isPresent() ? defaultMaxTokens.getAsInt() : left;
        long effective = Math.min(left, wanted);
        if (effective < 1) {
            return refuse("max_tokens", "max_tokens must be at least 1, got " + effective + ".");
        }
        if (stopping.minTokens() > effective) {
            return refuse("min_tokens", "min_tokens must be less than or equal to max_tokens=" + effective
                    + ", got " + stopping.minTokens() + ".");
        }
        ChatBudget budget = new ChatBudget((int) kept, (int) effective);
        return verify(request).map(ok -> budget);
    }

    /** The engine's checks ({@code SamplingParams.verify}): log-probability counts, then token ids. */
    private Outcome<Boolean> verify(ChatRequest request) {
        ChatLogprobs logprobs = request.logprobs();
        if (logprobs.logprobs()) {
            long asked = logprobs.topLogprobs() == -1 ? vocabSize : logprobs.topLogprobs();
            if (asked > maxLogprobs) {
                return refuse("top_logprobs", "Requested sample logprobs of " + asked
                        + ", which is greater than max allowed: " + maxLogprobs);
            }
        }
        if (logprobs.promptLogprobs().isPresent()) {
            long asked = logprobs.promptLogprobs().getAsInt() == -1 ? vocabSize : logprobs.promptLogprobs().getAsInt();
            if (asked > maxLogprobs) {
                return refuse("prompt_logprobs", "Requested prompt logprobs of " + asked
                        + ", which is greater than max allowed: " + maxLogprobs);
            }
        }
        ChatSampling sampling = request.sampling();
        if (sampling.allowedTokenIds().isPresent() && !outOfVocab(sampling.allowedTokenIds().get()).isEmpty()) {
            return refuse("allowed_token_ids", "allowed_token_ids contains out-of-vocab token id!");
        }
        String bias = outOfVocab(sampling.logitBias().keySet());
        if (!bias.isEmpty()) {
            return refuse("logit_bias", "token_id(s) " + bias + " in logit_bias contain out-of-vocab token ids. "
                    + "Vocabulary size: " + vocabSize);
        }
        String stops = outOfVocab(request.stopping().stopTokenIds());
        if (!stops.isEmpty()) {
            return refuse("stop_token_ids", "token_id(s) " + stops + " in stop_token_ids contain out-of-vocab token "
                    + "ids. Vocabulary size: " + vocabSize);
        }
        return Outcome.done(true);
    }

    /** The ids outside {@code [0, vocabSize)} as Python prints a list, or {@code ""} when none. */
    private String outOfVocab(Collection<Integer> ids) {
        List<Integer> bad = ids.stream().filter(id -> id < 0 || id >= vocabSize).toList();
        return bad.isEmpty() ? "" : bad.stream().map(String::valueOf).collect(Collectors.joining(", ", "[", "]"));
    }

    private static <T> Outcome<T> refuse(String param, String message) {
        return Outcome.refused(Refusal.invalid(param, message));
    }
}
