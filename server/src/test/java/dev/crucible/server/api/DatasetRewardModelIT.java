package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crucible.application.completion.StoredCompletionWriter;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RewardBodies;
import dev.crucible.server.support.TestServer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * An RL dataset whose rewards come from a reward model ({@code "reward": {"model": id}}) on the tiny model's stored
 * completions, none of them rated: every answer is scored, and its reward is what
 * {@code /v1/reward-models/{id}/score} answers for its (prompt, answer). Another entity's model, a missing one and a
 * malformed id are a 404 naming {@code reward.model}.
 */
class DatasetRewardModelIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final Api alice = server.api(server.newKey("alice"));
    private final Api mallory = server.api(server.newKey("mallory"));

    private static Map<String, Object> body(String kind, String rewardModel) {
        return Map.of("name", kind + " by model", "kind", kind, "filter", Map.of("metadata", Map.of("run", "rm")),
                "feedback", Map.of("type", "judge"), "reward", Map.of("model", rewardModel));
    }

    private String fitted(Api api) {
        Api.Reply reply = api.post("/v1/reward-models", RewardBodies.create("judge", 40, 7));
        assertEquals(200, reply.status(), reply.toString());
        return reply.text("id");
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyAnswerIsRewardedWithItsRewardModelScore() throws Exception {
        for (String question : List.of("Q1", "Q1", "Q1", "Q2", "Q2")) {
            DatasetsIT.storeOne(alice, question, Map.of("run", "rm"));
        }
        server.bean(StoredCompletionWriter.class).flushed().get(30, TimeUnit.SECONDS);
        String model = fitted(alice);

        Api.Reply rl = alice.post(DatasetsIT.ROUTE, body("rl", model));
        assertEquals(200, rl.status(), rl.toString());
        assertEquals(2, rl.json().get("rows"));
        Api.Bytes content = alice.download(DatasetsIT.ROUTE + "/" + rl.text("id") + "/content");
        List<Map<String, Object>> items = new ArrayList<>();
        List<Double> rewards = new ArrayList<>();
        for (String line : new String(content.body(), StandardCharsets.UTF_8).split("\n")) {
            for (Map<String, Object> trajectory : (List<Map<String, Object>>) JSON.readValue(line, Map.class)
                    .get("trajectories")) {
                List<Map<String, Object>> history = (List<Map<String, Object>>) trajectory.get("messages_and_choices");
                Map<String, Object> answer = (Map<String, Object>) history.getLast().get("message");
                items.add(Map.of("prompt", history.getFirst().get("content"), "answer", answer.get("content")));
                rewards.add(((Number) trajectory.get("reward")).doubleValue());
            }
        }
        assertEquals(5, items.size());
        Api.Reply scored = alice.post("/v1/reward-models/" + model + "/score", Map.of("items", items));
        assertEquals(200, scored.status(), scored.toString());
        List<Double> expected = ((List<Number>) scored.json().get("scores")).stream().map(Number::doubleValue).toList();
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), rewards.get(i), 1e-9, "trajectory " + i);
        }
    }

    @Test
    void anotherEntitysMissingOrMalformedRewardModelIsNotFound() {
        DatasetsIT.storeOne(mallory, "Q1", Map.of("run", "rm"));
        String alices = fitted(alice);
        mallory.post(DatasetsIT.ROUTE, body("rl", alices)).assertRefused(404, "reward.model");
        mallory.post(DatasetsIT.ROUTE, body("rl", "00000000-0000-0000-0000-000000000000"))
                .assertRefused(404, "reward.model");
        mallory.post(DatasetsIT.ROUTE, body("rl", "rm-1")).assertRefused(404, "reward.model");
    }
}
