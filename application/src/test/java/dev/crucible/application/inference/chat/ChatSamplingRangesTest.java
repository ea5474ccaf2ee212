package dev.crucible.application.inference.chat;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.application.inference.chat.ask.ChatSampling;
import dev.crucible.application.inference.chat.ask.ChatStopping;
import dev.crucible.kernel.refusal.Refusal.Reason;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The model-independent sampling ranges (vLLM's {@code SamplingParams._verify_args}), exact messages. */
class ChatSamplingRangesTest {

    /** A request's sampling and stopping values as the HTTP adapter reads them; unset ones are left out. */
    private static final class Asked {
        Optional<Double> temperature = Optional.empty();
        Optional<Double> topP = Optional.empty();
        Optional<Integer> topK = Optional.empty();
        Optional<Double> minP = Optional.empty();
        Optional<Double> presencePenalty = Optional.empty();
        Optional<Double> frequencyPenalty = Optional.empty();
        Optional<Double> repetitionPenalty = Optional.empty();
        int n = 1;
        Optional<List<Integer>> allowedTokenIds = Optional.empty();
        List<String> badWords = List.of();
        OptionalLong maxTokens = OptionalLong.empty();
        long minTokens;
        List<String> stop = List.of();
        OptionalLong truncatePromptTokens = OptionalLong.empty();
        boolean beamSearch;

        ChatRequest request() {
            ChatRequest plain = ChatRequest.of(List.of(Map.of("role", "user", "content", "Hi")));
            ChatSampling sampling = new ChatSampling(temperature, topP, topK, minP, presencePenalty, frequencyPenalty,
                    repetitionPenalty, n, OptionalLong.empty(), Map.of(), allowedTokenIds, badWords, beamSearch, 1.0);
            ChatStopping stopping = new ChatStopping(maxTokens, "max_tokens", minTokens, stop, List.of(), false,
                    false, truncatePromptTokens, ChatStopping.RepetitionDetection.OFF);
            return new ChatRequest(plain.model(), plain.messages(), sampling, stopping, plain.logprobs(),
                    plain.streaming(), plain.templating(), plain.tools(), plain.output(), plain.serving());
        }
    }

    private static ChatRequest asked(Consumer<Asked> set) {
        Asked asked = new Asked();
        set.accept(asked);
        return asked.request();
    }

    /** Asserts that the request is refused as invalid with exactly {@code message} naming {@code param}. */
    private static void refused(Consumer<Asked> set, String param, String message) {
        assertEquals(message, assertRefused(ChatSamplingRanges.check(asked(set)), Reason.INVALID, param));
    }

    private static Arguments row(Consumer<Asked> set, String param, String message) {
        return Arguments.of(set, param, message);
    }

    static Stream<Arguments> outOfRange() {
        return Stream.of(
                row(a -> a.n = 0, "n", "n must be at least 1, got 0."),
                row(a -> a.n = 16385, "n", "n must be at most 16384, got 16385. To increase this limit, set the "
                        + "VLLM_MAX_N_SEQUENCES environment variable."),
                row(a -> a.truncatePromptTokens = OptionalLong.of(0), "truncate_prompt_tokens",
                        "truncate_prompt_tokens must be an integer >= 1 or -1, got 0"),
                row(a -> a.truncatePromptTokens = OptionalLong.of(-2), "truncate_prompt_tokens",
                        "truncate_prompt_tokens must be an integer >= 1 or -1, got -2"),
                row(a -> a.presencePenalty = Optional.of(2.5), "presence_penalty",
                        "presence_penalty must be in [-2, 2], got 2.5."),
                row(a -> a.frequencyPenalty = Optional.of(-3.0), "frequency_penalty",
                        "frequency_penalty must be in [-2, 2], got -3.0."),
                row(a -> a.repetitionPenalty = Optional.of(0.0), "repetition_penalty",
                        "repetition_penalty must be greater than zero, got 0.0."),
                row(a -> a.temperature = Optional.of(-0.5), "temperature",
                        "temperature must be non-negative, got -0.5."),
                row(a -> a.temperature = Optional.of(2.5), "temperature", "temperature must be in [0, 2], got 2.5."),
                row(a -> a.topP = Optional.of(0.0), "top_p", "top_p must be in (0, 1], got 0.0."),
                row(a -> a.topP = Optional.of(1.5), "top_p", "top_p must be in (0, 1], got 1.5."),
                row(a -> a.topK = Optional.of(-2), "top_k", "top_k must be 0 (disable), or at least 1, got -2."),
                row(a -> a.minP = Optional.of(1.5), "min_p", "min_p must be in [0, 1], got 1.5."),
                row(a -> a.maxTokens = OptionalLong.of(0), "max_tokens", "max_tokens must be at least 1, got 0."),
                // max_completion_tokens is read into the same budget, and vLLM names max_tokens for it too
                row(a -> a.maxTokens = OptionalLong.of(-5), "max_tokens", "max_tokens must be at least 1, got -5."),
                row(a -> a.minTokens = -1, "min_tokens", "min_tokens must be greater than or equal to 0, got -1."),
                row(a -> a.stop = List.of("a", ""), "stop", "stop cannot contain an empty string."),
                row(a -> a.stop = List.of(""), "stop", "stop cannot contain an empty string."),
                row(a -> a.badWords = List.of("x", ""), "bad_words",
                        "bad_words cannot contain an empty string. Got bad_words=['x', '']"),
                row(a -> a.allowedTokenIds = Optional.of(List.of()), "allowed_token_ids",
                        "allowed_token_ids is not None and empty!"));
    }

    @ParameterizedTest(name = "{1}: {2}")
    @MethodSource("outOfRange")
    void anOutOfRangeValueIsRefusedWithVllmsMessage(Consumer<Asked> set, String param, String message) {
        refused(set, param, message);
    }

    @Test
    void truncatePromptTokensMayBeMinusOneOrPositive() {
        for (long kept : new long[] {-1, 1, 5}) {
            ChatRequest request = asked(a -> a.truncatePromptTokens = OptionalLong.of(kept));
            assertSame(request, value(ChatSamplingRanges.check(request)));
        }
    }

    @Test
    void topKMayBeMinusOne() {
        ChatRequest minusOne = asked(a -> a.topK = Optional.of(-1));
        assertSame(minusOne, value(ChatSamplingRanges.check(minusOne)));
    }

    @Test
    void greedySamplingTakesOneChoice() {
        refused(a -> {
            a.temperature = Optional.of(0.0);
            a.n = 2;
        }, "n", "n must be 1 when using greedy sampling, got 2.");
        ChatRequest two = asked(a -> a.n = 2);
        assertSame(two, value(ChatSamplingRanges.check(two)));
    }

    @Test
    void beamSearchTakesUpToTenBeamsWhateverTheTemperature() {
        ChatRequest greedyBeams = asked(a -> {
            a.beamSearch = true;
            a.temperature = Optional.of(0.0);
            a.n = 10;
        });
        assertSame(greedyBeams, value(ChatSamplingRanges.check(greedyBeams)));
        refused(a -> {
            a.beamSearch = true;
            a.n = 11;
        }, "n", "Requested sample logprobs of 22, which is greater than max allowed: 20 (use_beam_search asks for "
                + "2 * n logprobs per step, so n may be at most 10).");
        refused(a -> {
            a.beamSearch = true;
            a.n = 0;
        }, "n", "n must be at least 1, got 0.");
    }

    @Test
    void checksInVllmOrder() {
        refused(a -> {
            a.n = 0;
            a.temperature = Optional.of(-1.0);
        }, "n", "n must be at least 1, got 0.");
        refused(a -> {
            a.temperature = Optional.of(-1.0);
            a.topP = Optional.of(0.0);
        }, "temperature", "temperature must be non-negative, got -1.0.");
    }
}
