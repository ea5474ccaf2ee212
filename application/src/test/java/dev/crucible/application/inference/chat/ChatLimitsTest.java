package dev.crucible.application.inference.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.application.inference.chat.ask.ChatLogprobs;
import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.application.inference.chat.ask.ChatSampling;
import dev.crucible.application.inference.chat.ask.ChatStopping;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Model-dependent chat checks with vLLM's messages (vocabulary 1000, context 100, max_logprobs 20). */
class ChatLimitsTest {

    private static final ChatLimits LIMITS = ChatLimits.of(1000, 100);
    private static final ChatRequest PLAIN = ChatRequest.of(List.of(Map.of("role", "user", "content", "Hi")));

    private static ChatRequest stopping(OptionalLong maxTokens, String param, long minTokens, OptionalLong truncate) {
        ChatStopping s = new ChatStopping(maxTokens, param, minTokens, List.of(), List.of(), false, false, truncate,
                ChatStopping.RepetitionDetection.OFF);
        return new ChatRequest(Optional.empty(), PLAIN.messages(), PLAIN.sampling(), s, PLAIN.logprobs(),
                PLAIN.streaming(), PLAIN.templating(), PLAIN.tools(), PLAIN.output(), PLAIN.serving());
    }

    private static ChatRequest maxTokens(long max) {
        return stopping(OptionalLong.of(max), "max_tokens", 0, OptionalLong.empty());
    }

    private static ChatRequest logprobs(boolean on, int top, OptionalInt prompt) {
        return new ChatRequest(Optional.empty(), PLAIN.messages(), PLAIN.sampling(), PLAIN.stopping(),
                new ChatLogprobs(on, top, prompt, Optional.empty(), Optional.empty()), PLAIN.streaming(),
                PLAIN.templating(), PLAIN.tools(), PLAIN.output(), PLAIN.serving());
    }

    private static ChatRequest sampling(Map<Integer, Double> bias, Optional<List<Integer>> allowed) {
        ChatSampling d = ChatSampling.defaults();
        ChatSampling s = new ChatSampling(d.temperature(), d.topP(), d.topK(), d.minP(), d.presencePenalty(),
                d.frequencyPenalty(), d.repetitionPenalty(), 1, d.seed(), bias, allowed, List.of(), false, 1.0);
        return new ChatRequest(Optional.empty(), PLAIN.messages(), s, PLAIN.stopping(), PLAIN.logprobs(),
                PLAIN.streaming(), PLAIN.templating(), PLAIN.tools(), PLAIN.output(), PLAIN.serving());
    }

    private static void refused(Outcome<ChatBudget> outcome, String param, String message) {
        Refusal r = ((Outcome.Refused<ChatBudget>) outcome).refusal();
        assertEquals(message, r.message());
        assertEquals(param, r.param());
    }

    @Test
    void withoutMaxTokensTheRestOfTheContextIsTheBudget() {
        assertEquals(Outcome.done(new ChatBudget(7, 93)), LIMITS.check(PLAIN, 7));
    }

    @Test
    void refusesAPromptOfNoTokensNamingMessages() {
        refused(LIMITS.check(PLAIN, 0), "messages", "The decoder prompt cannot be empty");
    }

    @Test
    void requestedMaxTokensIsKeptWhenItFits() {
        assertEquals(Outcome.done(new ChatBudget(7, 10)), LIMITS.check(maxTokens(10), 7));
    }

    @Test
    void generationConfigMaxTokensIsAFallbackNotACeiling() {
        assertEquals(Outcome.done(new ChatBudget(7, 20)), LIMITS.check(PLAIN, 7, OptionalInt.of(20)));
        assertEquals(Outcome.done(new ChatBudget(7, 50)), LIMITS.check(maxTokens(50), 7, OptionalInt.of(20)));
        assertEquals(Outcome.done(new ChatBudget(90, 10)), LIMITS.check(PLAIN, 90, OptionalInt.of(20)));
    }

    @Test
    void refusesMaxTokensAboveContext() {
        refused(LIMITS.check(stopping(OptionalLong.of(101), "max_completion_tokens", 0, OptionalLong.empty()), 7),
                "max_completion_tokens", "max_completion_tokens=101cannot be greater than "
                        + "max_model_len=max_total_tokens=100. Please request fewer output tokens.");
    }

    @Test
    void refusesPromptThatLeavesTooLittleRoom() {
        refused(LIMITS.check(maxTokens(50), 60), "input_tokens", "You passed 60 input tokens and requested 50 output "
                + "tokens. However, the model's context length is only 100 tokens, resulting in a maximum input "
                + "length of 50 tokens. Please reduce the length of the input prompt.");
        refused(LIMITS.check(PLAIN, 101), "input_tokens", "You passed 101 input tokens and requested 0 output tokens. "
                + "However, the model's context length is only 100 tokens, resulting in a maximum input length of "
                + "100 tokens. Please reduce the length of the input prompt.");
    }

    @Test
    void promptFillingTheContextLeavesNoTokens() {
        refused(LIMITS.check(PLAIN, 100), "max_tokens", "max_tokens must be at least 1, got 0.");
    }

    @Test
    void truncationKeepsTheLastTokensAndCountsThem() {
        assertEquals(Outcome.done(new ChatBudget(5, 95)),
                LIMITS.check(stopping(OptionalLong.empty(), "max_tokens", 0, OptionalLong.of(5)), 7));
        assertEquals(Outcome.done(new ChatBudget(90, 10)),
                LIMITS.check(stopping(OptionalLong.of(10), "max_tokens", 0, OptionalLong.of(-1)), 200));
    }

    @Test
    void refusesTruncationAboveTheInputRoom() {
        refused(LIMITS.check(stopping(OptionalLong.of(10), "max_completion_tokens", 0, OptionalLong.of(95)), 7),
                "truncate_prompt_tokens", "truncate_prompt_tokens=95 cannot be greater than max_model_len - "
                        + "max_completion_tokens = 90. Please request a smaller truncation size.");
    }

    @Test
    void minTokensIsCheckedAgainstTheEffectiveBudget() {
        refused(LIMITS.check(stopping(OptionalLong.empty(), "max_tokens", 40, OptionalLong.empty()), 70), "min_tokens",
                "min_tokens must be less than or equal to max_tokens=30, got 40.");
    }

    @Test
    void refusesTopLogprobsAboveMaxLogprobs() {
        refused(LIMITS.check(logprobs(true, 21, OptionalInt.empty()), 7), "top_logprobs",
                "Requested sample logprobs of 21, which is greater than max allowed: 20");
        refused(LIMITS.check(logprobs(true, -1, OptionalInt.empty()), 7), "top_logprobs",
                "Requested sample logprobs of 1000, which is greater than max allowed: 20");
        assertEquals(Outcome.done(new ChatBudget(7, 93)), LIMITS.check(logprobs(true, 20, OptionalInt.empty()), 7));
    }

    @Test
    void refusesPromptLogprobsAboveMaxLogprobs() {
        refused(LIMITS.check(logprobs(false, 0, OptionalInt.of(-1)), 7), "prompt_logprobs",
                "Requested prompt logprobs of 1000, which is greater than max allowed: 20");
    }

    @Test
    void refusesOutOfVocabularyLogitBias() {
        assertEquals(Outcome.done(new ChatBudget(7, 93)), LIMITS.check(sampling(Map.of(999, 1.0), Optional.empty()), 7));
        refused(LIMITS.check(sampling(Map.of(1001, 1.0), Optional.empty()), 7), "logit_bias",
                "token_id(s) [1001] in logit_bias contain out-of-vocab token ids. Vocabulary size: 1000");
    }

    @Test
    void refusesOutOfVocabularyAllowedTokenIds() {
        refused(LIMITS.check(sampling(Map.of(), Optional.of(List.of(5, -1))), 7), "allowed_token_ids",
                "allowed_token_ids contains out-of-vocab token id!");
    }

    @Test
    void refusesOutOfVocabularyStopTokenIds() {
        ChatStopping s = new ChatStopping(OptionalLong.empty(), "max_tokens", 0, List.of(), List.of(999, 1001, -1),
                false, false, OptionalLong.empty(), ChatStopping.RepetitionDetection.OFF);
        ChatRequest r = new ChatRequest(Optional.empty(), PLAIN.messages(), PLAIN.sampling(), s, PLAIN.logprobs(),
                PLAIN.streaming(), PLAIN.templating(), PLAIN.tools(), PLAIN.output(), PLAIN.serving());
        refused(LIMITS.check(r, 7), "stop_token_ids",
                "token_id(s) [1001, -1] in stop_token_ids contain out-of-vocab token ids. Vocabulary size: 1000");
    }
}
