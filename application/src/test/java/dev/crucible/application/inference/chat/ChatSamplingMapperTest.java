package dev.crucible.application.inference.chat;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.inference.chat.ask.ChatLogprobs;
import dev.crucible.application.inference.chat.ask.ChatOutput;
import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.application.inference.chat.ask.ChatSampling;
import dev.crucible.application.inference.chat.ask.ChatStopping;
import dev.crucible.application.inference.chat.ask.ChatStreaming;
import dev.crucible.kernel.refusal.Refusal.Reason;
import dev.crucible.hf.config.GenerationConfig;
import dev.crucible.runtime.generation.sampling.RepetitionDetection;
import dev.crucible.runtime.generation.sampling.SamplingParams;
import dev.crucible.testsupport.tokenizer.CharTokenizer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Request to sampling parameters: request value, else generation config, else vLLM's default. */
class ChatSamplingMapperTest {

    private static final ChatBudget BUDGET = new ChatBudget(5, 16);
    private static final GenerationConfig CONFIG = new GenerationConfig(OptionalInt.empty(), List.of(),
            OptionalInt.empty(), Optional.empty(), OptionalDouble.of(0.7), OptionalDouble.of(0.9), OptionalInt.of(40),
            OptionalDouble.of(0.05), OptionalDouble.of(1.1), OptionalInt.empty(), OptionalInt.empty());

    private static ChatSampling sampling(Optional<Double> temperature, Optional<Double> topP, Optional<Integer> topK,
            Optional<Double> minP, Optional<Double> repetitionPenalty, List<String> badWords) {
        return new ChatSampling(temperature, topP, topK, minP, Optional.of(0.5), Optional.of(0.25), repetitionPenalty,
                3, OptionalLong.of(7), Map.of(12, 2.0), Optional.of(List.of(11, 12)), badWords, false, 1.0);
    }

    private static ChatRequest request(ChatSampling sampling, ChatStopping stopping, ChatLogprobs logprobs,
            boolean stream, ChatOutput output) {
        ChatRequest plain = ChatRequest.of(List.of(Map.of("role", "user", "content", "Hi")));
        return new ChatRequest(plain.model(), plain.messages(), sampling, stopping, logprobs,
                new ChatStreaming(stream, false, false), plain.templating(), plain.tools(), output, plain.serving());
    }

    private static ChatRequest withSampling(ChatSampling sampling) {
        return request(sampling, ChatStopping.defaults(), ChatLogprobs.defaults(), false, ChatOutput.defaults());
    }

    private static ChatRequest withLogprobs(ChatLogprobs logprobs, boolean stream, boolean echo) {
        return request(ChatSampling.defaults(), ChatStopping.defaults(), logprobs, stream,
                new ChatOutput(echo, true, true, true, Optional.empty(), Optional.empty()));
    }

    /** The params for a request asking {@code logprobs}, {@code top_logprobs} and {@code prompt_logprobs} only. */
    private static SamplingParams mappedLogprobs(boolean logprobs, int top, OptionalInt prompt, boolean stream,
            boolean echo) {
        return mapped(withLogprobs(new ChatLogprobs(logprobs, top, prompt, Optional.empty(), Optional.empty()), stream,
                echo), GenerationConfig.NONE);
    }

    private static SamplingParams mapped(ChatRequest request, GenerationConfig config) {
        return value(ChatSamplingMapper.map(request, BUDGET, config, new CharTokenizer()));
    }

    /** Asserts the five knobs both the request and {@code generation_config.json} may set. */
    private static void assertKnobs(SamplingParams p, double temperature, double topP, int topK, double minP,
            double repetitionPenalty) {
        assertEquals(temperature, p.temperature(), "temperature");
        assertEquals(topP, p.topP(), "top_p");
        assertEquals(topK, p.topK(), "top_k");
        assertEquals(minP, p.minP(), "min_p");
        assertEquals(repetitionPenalty, p.repetitionPenalty(), "repetition_penalty");
    }

    @Test
    void requestValuesWinOverTheGenerationConfig() {
        SamplingParams p = mapped(withSampling(sampling(Optional.of(0.5), Optional.of(0.8), Optional.of(5),
                Optional.of(0.1), Optional.of(1.3), List.of())), CONFIG);

        assertKnobs(p, 0.5, 0.8, 5, 0.1, 1.3);
    }

    @Test
    void generationConfigFillsWhatTheRequestLeftOut() {
        SamplingParams p = mapped(withSampling(ChatSampling.defaults()), CONFIG);

        assertKnobs(p, 0.7, 0.9, 40, 0.05, 1.1);
    }

    @Test
    void vllmDefaultsApplyWhenNeitherRequestNorConfigSetsAValue() {
        SamplingParams p = mapped(withSampling(ChatSampling.defaults()), GenerationConfig.NONE);

        assertKnobs(p, 1.0, 1.0, 0, 0.0, 1.0);
        assertEquals(0.0, p.presencePenalty());
        assertEquals(0.0, p.frequencyPenalty());
        assertEquals(OptionalLong.empty(), p.seed());
        assertEquals(1, p.n());
        assertEquals(Optional.empty(), p.allowedTokenIds());
        assertEquals(List.of(), p.badWords());
    }

    @Test
    void requestOnlyFieldsPassThrough() {
        SamplingParams p = mapped(withSampling(sampling(Optional.of(0.5), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), List.of())), GenerationConfig.NONE);

        assertEquals(0.5, p.presencePenalty());
        assertEquals(0.25, p.frequencyPenalty());
        assertEquals(OptionalLong.of(7), p.seed());
        assertEquals(Map.of(12, 2.0), p.logitBias());
        assertEquals(Optional.of(List.of(11, 12)), p.allowedTokenIds());
        assertEquals(3, p.n());
    }

    @Test
    void badWordsAreTokenizedWithAndWithoutALeadingSpaceWithoutDuplicates() {
        int a = CharTokenizer.id('a');
        int b = CharTokenizer.id('b');
        int space = CharTokenizer.id(' ');
        SamplingParams p = mapped(withSampling(sampling(Optional.of(0.5), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), List.of("ab", " ab"))), GenerationConfig.NONE);

        assertEquals(List.of(List.of(a, b), List.of(space, a, b)), p.badWords());
    }

    @Test
    void refusesABadWordThatTokenizesToNothing() {
        ChatRequest request = withSampling(sampling(Optional.of(0.5), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), List.of("")));

        String message = assertRefused(ChatSamplingMapper.map(request, BUDGET, GenerationConfig.NONE,
                new CharTokenizer()), Reason.INVALID, "bad_words");

        assertEquals("bad_words entries must tokenize to at least one token.", message);
    }

    @Test
    void stoppingAndOutputSettingsComeFromTheRequestAndTheBudget() {
        ChatStopping stopping = new ChatStopping(OptionalLong.of(99), "max_tokens", 4, List.of("END"),
                List.of(3, 3, 4), true, true, OptionalLong.empty(),
                new ChatStopping.RepetitionDetection(4, 2, 3));
        ChatOutput output = new ChatOutput(false, true, false, false, Optional.empty(), Optional.empty());

        SamplingParams p = mapped(request(ChatSampling.defaults(), stopping, ChatLogprobs.defaults(), false, output),
                GenerationConfig.NONE);

        assertEquals(16, p.maxTokens());
        assertEquals(4, p.minTokens());
        assertEquals(List.of("END"), p.stop());
        assertEquals(List.of(3, 4), p.stopTokenIds());
        assertTrue(p.ignoreEos());
        assertTrue(p.includeStopStrInOutput());
        assertFalse(p.skipSpecialTokens());
        assertFalse(p.spacesBetweenSpecialTokens());
        assertEquals(new RepetitionDetection(4, 2, 3), p.repetitionDetection());
    }

    @Test
    void clampsMinTokensAndRepetitionSizesToTheIntRange() {
        ChatStopping stopping = new ChatStopping(OptionalLong.empty(), "max_tokens", Long.MAX_VALUE, List.of(),
                List.of(), false, false, OptionalLong.empty(),
                new ChatStopping.RepetitionDetection(Long.MAX_VALUE, 2, Long.MAX_VALUE));

        SamplingParams p = value(ChatSamplingMapper.map(request(ChatSampling.defaults(), stopping,
                ChatLogprobs.defaults(), false, ChatOutput.defaults()), new ChatBudget(5, Integer.MAX_VALUE),
                GenerationConfig.NONE, new CharTokenizer()));

        assertEquals(Integer.MAX_VALUE, p.minTokens());
        assertEquals(new RepetitionDetection(Integer.MAX_VALUE, 2, Integer.MAX_VALUE), p.repetitionDetection());
    }

    @Test
    void logprobsAreTheTopCountOnlyWhenAsked() {
        assertEquals(OptionalInt.of(3), mappedLogprobs(true, 3, OptionalInt.empty(), false, false).logprobs());
        assertEquals(OptionalInt.of(0), mappedLogprobs(true, -1, OptionalInt.empty(), false, false).logprobs());
        assertEquals(OptionalInt.empty(), mappedLogprobs(false, 3, OptionalInt.empty(), false, false).logprobs());
    }

    @Test
    void promptLogprobsComeFromTheRequestElseEchoedTopLogprobs() {
        assertEquals(OptionalInt.of(2), mappedLogprobs(false, 4, OptionalInt.of(2), false, true).promptLogprobs());
        assertEquals(OptionalInt.of(0), mappedLogprobs(false, 0, OptionalInt.of(-1), false, false).promptLogprobs());
        assertEquals(OptionalInt.of(4), mappedLogprobs(false, 4, OptionalInt.empty(), false, true).promptLogprobs());
        assertEquals(OptionalInt.of(0), mappedLogprobs(false, -1, OptionalInt.empty(), false, true).promptLogprobs());
        assertEquals(OptionalInt.empty(), mappedLogprobs(false, 4, OptionalInt.empty(), false, false).promptLogprobs());
    }

    @Test
    void streamsNeverComputePromptLogprobs() {
        assertEquals(OptionalInt.empty(), mappedLogprobs(false, 4, OptionalInt.of(2), true, true).promptLogprobs());
    }
}
