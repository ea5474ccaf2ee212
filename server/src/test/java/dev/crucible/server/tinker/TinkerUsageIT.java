package dev.crucible.server.tinker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Training usage: a Tinker {@code forward_backward} (two datums) and a {@code forward} on the tiny model, then
 * {@code GET /v1/organization/usage/training} shows their positions under the entity's default project, the run's
 * model and the key; another entity sees none of it; bad parameters are refused as the completions route refuses them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TinkerUsageIT {

    private static final String TRAINING = "/v1/organization/usage/training";
    private static final String COMPLETIONS = "/v1/organization/usage/completions";

    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final long start = Instant.now().getEpochSecond();
    private final String key = server.newKey("tina");
    private final Api tina = server.api(key);
    private final TinkerClient tinker = new TinkerClient(server, key);
    private final String model;

    TinkerUsageIT() {
        model = tinker.createModel(TestServer.BASE_MODEL, 2);
        // 5 + 3 positions trained (each datum's model_input), then 4 scored without a gradient
        tinker.await(tinker.submit("forward_backward", TinkerClient.forwardBackward(model, tinker.nextSeq(),
                "cross_entropy", List.of(TinkerClient.teaching(5, 6, 7, 8, 9, 10),
                        TinkerClient.teaching(3, 4, 5, 6)))));
        tinker.forwardLogprobs(model, tinker.nextSeq(), 11, 12, 13, 14, 15);
    }

    @Test
    void theOperationsCountUnderTheProjectModelAndKey() throws InterruptedException {
        List<Map<String, Object>> results = awaitOperations(tina, "&group_by=project_id,model,api_key_id", 2);
        assertEquals(1, results.size(), results.toString());
        Map<String, Object> only = results.getFirst();
        assertEquals(List.of("object", "trained_tokens", "forward_tokens", "num_operations", "project_id", "model",
                "api_key_id"), List.copyOf(only.keySet()));
        assertEquals("organization.usage.training.result", only.get("object"));
        assertEquals(8L, number(only.get("trained_tokens")));
        assertEquals(4L, number(only.get("forward_tokens")));
        assertEquals("tina/default", only.get("project_id"));
        assertTrue(((String) only.get("model")).endsWith("/tinker/run-" + model), only.toString());
        assertNotNull(only.get("api_key_id"));
        Map<String, Object> ungrouped = awaitOperations(tina, "", 2).getFirst();
        assertNull(ungrouped.get("project_id"));
        assertNull(ungrouped.get("model"));
        assertNull(ungrouped.get("api_key_id"));
        assertTrue(results(tina.get(TRAINING + "?start_time=" + start + "&models=elsewhere")).isEmpty());
    }

    @Test
    void anotherEntitySeesNone() {
        Api otto = server.api(server.newKey("otto"));
        Api.Reply reply = otto.get(TRAINING + "?start_time=" + start + "&group_by=project_id");
        assertEquals(200, reply.status(), reply.toString());
        assertTrue(results(reply).isEmpty(), reply.toString());
        assertTrue(results(otto.get(TRAINING + "?start_time=" + start + "&project_ids=tina/default")).isEmpty());
    }

    @Test
    void badParametersAreRefusedAsTheCompletionsRouteRefusesThem() {
        for (String query : List.of("", "?start_time=x", "?start_time=0&bucket_width=1w",
                "?start_time=0&group_by=user_id", "?start_time=0&limit=32", "?start_time=10&end_time=5",
                "?start_time=0&page=xyz", "?start_time=0&limit=1&limit=2", "?start_time=0&user_ids=u")) {
            Api.Reply training = tina.get(TRAINING + query);
            Api.Reply completions = tina.get(COMPLETIONS + query);
            assertEquals(400, training.status(), query + ": " + training);
            assertEquals(completions.json(), training.json(), query);
        }
    }

    /** Waits (usage is written moments after an operation ends) until the range holds {@code operations}. */
    private List<Map<String, Object>> awaitOperations(Api api, String query, long operations) {
        String range = TRAINING + "?start_time=" + start + query;
        List<Map<String, Object>> results = Await.until(() -> results(api.get(range)),
                r -> counted(r) >= operations, Duration.ofSeconds(20));
        assertEquals(operations, counted(results), results.toString());
        return results;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> results(Api.Reply reply) {
        assertEquals(200, reply.status(), reply.toString());
        return ((List<Map<String, Object>>) reply.json().get("data")).stream()
                .flatMap(bucket -> ((List<Map<String, Object>>) bucket.get("results")).stream()).toList();
    }

    private static long counted(List<Map<String, Object>> results) {
        return results.stream().mapToLong(r -> number(r.get("num_operations"))).sum();
    }

    private static long number(Object value) {
        return ((Number) value).longValue();
    }
}
