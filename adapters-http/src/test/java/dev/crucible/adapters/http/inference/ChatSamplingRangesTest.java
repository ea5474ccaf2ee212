package dev.crucible.adapters.http.inference;

import static dev.crucible.adapters.http.inference.ChatBodies.body;
import static dev.crucible.adapters.http.inference.ChatBodies.read;
import static dev.crucible.adapters.http.inference.ChatBodies.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The model-independent sampling ranges (vLLM's {@code SamplingParams._verify_args}), exact messages. */
class ChatSamplingRangesTest {

    @Test
    void nIsAtLeastOne() {
        refused(body("n", 0), "n", "n must be at least 1, got 0.");
    }

    @Test
    void nIsAtMost16384() {
        refused(body("n", 16385), "n", "n must be at most 16384, got 16385. To increase this limit, set the "
                + "VLLM_MAX_N_SEQUENCES environment variable.");
    }

    @Test
    void penaltiesAreWithinTwo() {
        refused(body("presence_penalty", 2.5), "presence_penalty", "presence_penalty must be in [-2, 2], got 2.5.");
        refused(body("frequency_penalty", -3), "frequency_penalty", "frequency_penalty must be in [-2, 2], got -3.0.");
    }

    @Test
    void repetitionPenaltyIsPositive() {
        refused(body("repetition_penalty", 0), "repetition_penalty",
                "repetition_penalty must be greater than zero, got 0.0.");
    }

    @Test
    void temperatureIsNonNegative() {
        refused(body("temperature", -0.5), "temperature", "temperature must be non-negative, got -0.5.");
    }

    @Test
    void temperatureIsAtMostTwo() {
        refused(body("temperature", 2.5), "temperature", "temperature must be in [0, 2], got 2.5.");
    }

    @Test
    void topPIsInZeroOne() {
        refused(body("top_p", 0), "top_p", "top_p must be in (0, 1], got 0.0.");
        refused(body("top_p", 1.5), "top_p", "top_p must be in (0, 1], got 1.5.");
    }

    @Test
    void topKIsZeroMinusOneOrPositive() {
        refused(body("top_k", -2), "top_k", "top_k must be 0 (disable), or at least 1, got -2.");
        assertEquals(-1, read(body("top_k", -1)).sampling().topK().orElseThrow());
    }

    @Test
    void minPIsInZeroOne() {
        refused(body("min_p", 1.5), "min_p", "min_p must be in [0, 1], got 1.5.");
    }

    @Test
    void maxTokensIsAtLeastOne() {
        refused(body("max_tokens", 0), "max_tokens", "max_tokens must be at least 1, got 0.");
        refused(body("max_completion_tokens", -5), "max_tokens", "max_tokens must be at least 1, got -5.");
    }

    @Test
    void minTokensIsNonNegative() {
        refused(body("min_tokens", -1), "min_tokens", "min_tokens must be greater than or equal to 0, got -1.");
    }

    @Test
    void stopHasNoEmptyString() {
        refused(body("stop", List.of("a", "")), "stop", "stop cannot contain an empty string.");
        refused(body("stop", ""), "stop", "stop cannot contain an empty string.");
    }

    @Test
    void badWordsHaveNoEmptyString() {
        refused(body("bad_words", List.of("x", "")), "bad_words",
                "bad_words cannot contain an empty string. Got bad_words=['x', '']");
    }

    @Test
    void allowedTokenIdsAreNotEmpty() {
        refused(body("allowed_token_ids", List.of()), "allowed_token_ids", "allowed_token_ids is not None and empty!");
    }

    @Test
    void greedySamplingTakesOneChoice() {
        refused(body("temperature", 0, "n", 2), "n", "n must be 1 when using greedy sampling, got 2.");
        assertEquals(2, read(body("n", 2)).sampling().n());
    }

    @Test
    void checksInVllmOrder() {
        refused(body("n", 0, "temperature", -1), "n", "n must be at least 1, got 0.");
        refused(body("temperature", -1, "top_p", 0), "temperature", "temperature must be non-negative, got -1.0.");
        refused(body("cache_salt", "", "n", 0), "cache_salt",
                "Parameter 'cache_salt' must be a non-empty string if provided.");
    }
}
