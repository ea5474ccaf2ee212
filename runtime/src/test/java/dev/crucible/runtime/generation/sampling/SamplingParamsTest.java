package dev.crucible.runtime.generation.sampling;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal.Reason;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class SamplingParamsTest {

    private static Outcome<SamplingParams> with(UnaryOperator<SamplingParamsBuilder> change) {
        return change.apply(SamplingParams.builder()).build();
    }

    private static void refused(String param, String message, UnaryOperator<SamplingParamsBuilder> change) {
        assertEquals(message, assertRefused(with(change), Reason.INVALID, param));
    }

    @Test
    void defaultsAreVllmBuiltIns() {
        SamplingParams p = value(with(b -> b));
        assertEquals(1.0, p.temperature());
        assertEquals(1.0, p.topP());
        assertEquals(0, p.topK());
        assertEquals(0.0, p.minP());
        assertEquals(1.0, p.repetitionPenalty());
        assertEquals(1, p.n());
        assertTrue(p.skipSpecialTokens());
        assertFalse(p.greedy());
    }

    @Test
    void refusesOutOfRangeValuesWithVllmMessages() {
        refused("top_p", "top_p must be in (0, 1], got 1.5.", b -> b.topP(1.5));
        refused("top_p", "top_p must be in (0, 1], got 0.0.", b -> b.topP(0));
        refused("temperature", "temperature must be non-negative, got -1.0.", b -> b.temperature(-1));
        refused("temperature", "temperature must be a finite number, got NaN.", b -> b.temperature(Double.NaN));
        refused("top_k", "top_k must be 0 (disable), or at least 1, got -2.", b -> b.topK(-2));
        refused("min_p", "min_p must be in [0, 1], got 1.5.", b -> b.minP(1.5));
        refused("presence_penalty", "presence_penalty must be in [-2, 2], got 2.5.", b -> b.presencePenalty(2.5));
        refused("frequency_penalty", "frequency_penalty must be in [-2, 2], got -3.0.", b -> b.frequencyPenalty(-3));
        refused("repetition_penalty", "repetition_penalty must be greater than zero, got 0.0.",
                b -> b.repetitionPenalty(0));
        refused("max_tokens", "max_tokens must be at least 1, got 0.", b -> b.maxTokens(0));
        refused("min_tokens", "min_tokens must be greater than or equal to 0, got -1.", b -> b.minTokens(-1));
        refused("min_tokens", "min_tokens must be less than or equal to max_tokens=5, got 6.",
                b -> b.maxTokens(5).minTokens(6));
        refused("n", "n must be at least 1, got 0.", b -> b.n(0));
        refused("n", "n must be 1 when using greedy sampling, got 2.", b -> b.temperature(0).n(2));
        refused("top_logprobs", "Requested sample logprobs of 21, which is greater than max allowed: 20",
                b -> b.logprobs(21));
        refused("stop", "stop cannot contain an empty string.", b -> b.stop(List.of("x", "")));
        refused("allowed_token_ids", "allowed_token_ids is not None and empty!", b -> b.allowedTokenIds(List.of()));
        refused("bad_words", "bad_words entries must tokenize to at least one token.",
                b -> b.badWords(List.of(List.of())));
        refused("repetition_detection", "min_count must be >= 2 to detect repetitive patterns in engine output. If "
                + "you do not wish to detect repetitive patterns, set max_pattern_size to 0.",
                b -> b.repetitionDetection(3, 1, 1));
        refused("repetition_detection", "max_pattern_size, min_pattern_size must be >=0, with min_pattern_size <= "
                + "max_pattern_size. Set both to 0 to disable repetitive pattern detection.",
                b -> b.repetitionDetection(2, 3, 2));
    }

    @Test
    void constructorThrowsTheSameMessage() {
        var e = assertThrows(IllegalArgumentException.class, () -> new RepetitionDetection(-1, 0, 0));
        assertTrue(e.getMessage().startsWith("max_pattern_size, min_pattern_size must be >=0"));
    }

    @Test
    void normalisesAsVllmDoes() {
        SamplingParams p = value(with(b -> b.topK(-1).seed(-1).temperature(0.001)
                .logitBias(Map.of(1, 150.0, 2, -500.0, 3, 5.5)).stopTokenIds(List.of(4, 4, 3))));
        assertEquals(0, p.topK());
        assertEquals(OptionalLong.empty(), p.seed());
        assertEquals(0.01, p.temperature());
        assertEquals(Map.of(1, 100.0, 2, -100.0, 3, 5.5), p.logitBias());
        assertEquals(List.of(4, 3), p.stopTokenIds());
    }

    @Test
    void greedyResetsTruncation() {
        SamplingParams p = value(with(b -> b.temperature(0).topP(0.5).topK(3).minP(0.2)));
        assertTrue(p.greedy());
        assertEquals(1.0, p.topP());
        assertEquals(0, p.topK());
        assertEquals(0.0, p.minP());
    }

    @Test
    void checksTokenIdsAgainstTheVocabulary() {
        assertEquals("token_id(s) [16] in logit_bias contain out-of-vocab token ids. Vocabulary size: 16",
                assertRefused(value(with(b -> b.logitBias(Map.of(16, 1.0)))).checkVocabulary(16),
                        Reason.INVALID, "logit_bias"));
        value(value(with(b -> b.logitBias(Map.of(15, 1.0)))).checkVocabulary(16));
        assertEquals("token_id(s) [-1] in stop_token_ids contain out-of-vocab token ids. Vocabulary size: 16",
                assertRefused(value(with(b -> b.stopTokenIds(List.of(-1)))).checkVocabulary(16),
                        Reason.INVALID, "stop_token_ids"));
        assertEquals("allowed_token_ids contains out-of-vocab token id!",
                assertRefused(value(with(b -> b.allowedTokenIds(List.of(3, 16)))).checkVocabulary(16),
                        Reason.INVALID, "allowed_token_ids"));
    }
}
