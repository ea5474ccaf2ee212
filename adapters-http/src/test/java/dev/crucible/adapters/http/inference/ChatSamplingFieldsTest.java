package dev.crucible.adapters.http.inference;

import static dev.crucible.adapters.http.inference.ChatBodies.body;
import static dev.crucible.adapters.http.inference.ChatBodies.read;
import static dev.crucible.adapters.http.inference.ChatBodies.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.application.inference.chat.ask.ChatRequest;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The sampling and stopping fields reach the use case as sent: their ranges are the use case's to check (its
 * {@code ChatSamplingRangesTest} holds vLLM's messages), after every protocol check here.
 */
class ChatSamplingFieldsTest {

    @Test
    void outOfRangeValuesAreReadAsSent() {
        assertEquals(0, read(body("n", 0)).sampling().n());
        assertEquals(16385, read(body("n", 16385)).sampling().n());
        assertEquals(Optional.of(2.5), read(body("presence_penalty", 2.5)).sampling().presencePenalty());
        assertEquals(Optional.of(-3.0), read(body("frequency_penalty", -3)).sampling().frequencyPenalty());
        assertEquals(Optional.of(0.0), read(body("repetition_penalty", 0)).sampling().repetitionPenalty());
        assertEquals(Optional.of(-0.5), read(body("temperature", -0.5)).sampling().temperature());
        assertEquals(Optional.of(0.0), read(body("top_p", 0)).sampling().topP());
        assertEquals(Optional.of(-2), read(body("top_k", -2)).sampling().topK());
        assertEquals(Optional.of(1.5), read(body("min_p", 1.5)).sampling().minP());
        assertEquals(-1, read(body("min_tokens", -1)).stopping().minTokens());
        assertEquals(List.of("x", ""), read(body("bad_words", List.of("x", ""))).sampling().badWords());
        assertEquals(Optional.of(List.of()), read(body("allowed_token_ids", List.of())).sampling().allowedTokenIds());
    }

    @Test
    void topKOfMinusOneIsKept() {
        assertEquals(-1, read(body("top_k", -1)).sampling().topK().orElseThrow());
    }

    @Test
    void maxCompletionTokensIsTheBudgetThatMaxTokensChecksName() {
        assertEquals(OptionalLong.of(0), read(body("max_tokens", 0)).stopping().maxTokens());
        assertEquals(OptionalLong.of(-5), read(body("max_completion_tokens", -5)).stopping().maxTokens());
    }

    @Test
    void aSingleStopStringIsAOneElementList() {
        assertEquals(List.of("a", ""), read(body("stop", List.of("a", ""))).stopping().stop());
        assertEquals(List.of(""), read(body("stop", "")).stopping().stop());
    }

    @Test
    void greedyWithSeveralChoicesIsReadAsSent() {
        ChatRequest greedy = read(body("temperature", 0, "n", 2));
        assertEquals(Optional.of(0.0), greedy.sampling().temperature());
        assertEquals(2, greedy.sampling().n());
        assertEquals(2, read(body("n", 2)).sampling().n());
    }

    @Test
    void protocolChecksComeBeforeTheRanges() {
        refused(body("cache_salt", "", "n", 0), "cache_salt",
                "Parameter 'cache_salt' must be a non-empty string if provided.");
    }
}
