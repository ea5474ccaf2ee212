package dev.crucible.server.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The pieces of text the client builds: path segments from user input, and the lines a followed job prints. */
class ClientTextTest {

    private static JsonNode json(String text) throws Exception {
        return CrucibleClient.json().readTree(text);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"a/b | a%2Fb", ".. | %2E%2E", ". | %2E", "a b?c | a%20b%3Fc",
        "0d5d8d08-aaaa | 0d5d8d08-aaaa"})
    void aPathSegmentKeepsSlashesAndDotSegmentsInside(String value, String segment) {
        assertEquals(segment, Paths.segment(value));
    }

    @Test
    void queryParametersAreEncodedAndNullsLeftOut() {
        assertEquals("/x?limit=100&after=a%26b", CrucibleClient.query("/x", "limit", "100", "order", null,
                "after", "a&b"));
        assertEquals("/x", CrucibleClient.query("/x", "after", null));
        assertEquals("/x?order=desc&limit=5", CrucibleClient.query("/x?order=desc", "limit", "5"));
    }

    @Test
    void aStepLineShowsTheNumbersWorthAGlance() throws Exception {
        JsonNode step = json("{\"gradient_step\":2,\"loss\":1.23456,\"grad_norm\":0.5,\"learning_rate\":1e-5,"
                + "\"entropy\":2.0}");
        assertEquals("step 2/4  loss 1.235  grad_norm 0.5000  learning_rate 1.000e-05", JobProgress.stepLine(step, 4));
        assertEquals("step 2  loss 1.235  grad_norm 0.5000  learning_rate 1.000e-05", JobProgress.stepLine(step, 0));
    }

    @Test
    void trainingStartedTellsTheTrainableTokensOnlyWhenTheEventHasThem() throws Exception {
        java.io.StringWriter text = new java.io.StringWriter();
        try (PlainJobProgress progress = new PlainJobProgress(new java.io.PrintWriter(text))) {
            progress.event(json("{\"type\":\"training_started\",\"data\":{\"num_gradient_steps\":6,"
                    + "\"num_trainable_tokens\":42}}"));
            progress.event(json("{\"type\":\"training_started\",\"data\":{\"num_gradient_steps\":6}}"));
        }
        assertEquals(java.util.List.of("training started: 6 gradient step(s), 42 trainable tokens",
                "training started: 6 gradient step(s)"), text.toString().lines().toList());
    }

    @Test
    void theFinalLineSaysTheOutcomeStepRewardAndError() throws Exception {
        assertEquals("completed: step 3  train/reward 0.7500  loss/train 0.1000", FinalLine.of(
                json("{\"status\":\"COMPLETED\",\"result_step\":3,\"error_message\":null}"),
                json("{\"loss/train\":0.1,\"train/reward\":0.75,\"other\":1}")));
        assertEquals("failed: line 1 has no messages", FinalLine.of(
                json("{\"status\":\"FAILED\",\"result_step\":null,\"error_message\":\"line 1 has no messages\"}"),
                json("{}")));
    }
}
