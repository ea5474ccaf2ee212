package dev.crucible.server.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The RL loop as the ART client drives it, entirely through the public API: sample rollouts from the trained model's
 * latest checkpoint with chat completions, score them with a programmatic reward, send the groups as a training job,
 * wait for the new checkpoint, and sample again. The reward (the share of sampled tokens with an even id) is one a
 * random tiny model starts near 0.5 on and can only raise by learning.
 */
class RlLearningIT {

    /** Six in the test suite; {@code bench/learn} runs the same loop longer. */
    private static final int STEPS = Integer.getInteger("crucible.learn.rl-steps", 6);
    private static final int GROUP_SIZE = 8;
    private static final List<String> PROMPTS = List.of("Hello there", "Tell me a story");

    private static TestServer server;
    private static Api api;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(Map.of());
        api = server.api(server.newKey("rl"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    @SuppressWarnings("unchecked")
    void meanRewardRisesOverStepsWithRolloutsFromCrucibleItself() {
        String model = api.post("/v1/preview/models", RequestBodies.createModel("p", "learner")).text("id");
        String address = "crucible:///rl/p/learner";
        List<Double> means = new ArrayList<>();
        for (int step = 0; step < STEPS; step++) {
            List<Map<String, Object>> groups = new ArrayList<>();
            double total = 0;
            for (String prompt : PROMPTS) {
                List<Map<String, Object>> trajectories = new ArrayList<>();
                for (int i = 0; i < GROUP_SIZE; i++) {
                    Map<String, Object> user = Map.of("role", "user", "content", prompt);
                    Map<String, Object> body = new HashMap<>();
                    body.put("model", address);
                    body.put("messages", List.of(user));
                    body.put("max_tokens", 6);
                    body.put("temperature", 1.0);
                    body.put("seed", step * 1000 + groups.size() * 100 + i);
                    Api.Reply reply = api.post("/v1/chat/completions", body);
                    assertEquals(200, reply.status(), reply.toString());
                    Map<String, Object> choice = ((List<Map<String, Object>>) reply.json().get("choices")).getFirst();
                    double reward = reward(choice);
                    total += reward;
                    Map<String, Object> trajectory = new LinkedHashMap<>();
                    trajectory.put("messages_and_choices", List.of(user, choice));
                    trajectory.put("reward", reward);
                    trajectories.add(trajectory);
                }
                groups.add(Map.of("trajectories", trajectories));
            }
            means.add(total / (PROMPTS.size() * GROUP_SIZE));
            Map<String, Object> job = Map.of("model_id", model, "trajectory_groups", groups,
                    "experimental_config", Map.of("learning_rate", 3e-3));
            String id = api.post("/v1/preview/training-jobs", job).text("id");
            Await.until(() -> api.get("/v1/preview/training-jobs/" + id).text("status"),
                    s -> s.equals("COMPLETED") || s.equals("FAILED"), Duration.ofSeconds(60));
            assertEquals("COMPLETED", api.get("/v1/preview/training-jobs/" + id).text("status"),
                    api.get("/v1/preview/training-jobs/" + id).toString());
            checkEvents(id, step + 1, model);
        }
        System.out.println("RL mean reward by step: " + means.stream().map(m -> String.format("%.3f", m)).toList());
        double first = means.getFirst();
        double last = (means.get(STEPS - 1) + means.get(STEPS - 2)) / 2;
        assertTrue(last > first + 0.15, "mean reward should rise: " + means);
    }

    /** The share of sampled tokens (read from the {@code token_id:N} logprobs) whose id is even. */
    @SuppressWarnings("unchecked")
    private static double reward(Map<String, Object> choice) {
        List<Map<String, Object>> tokens = (List<Map<String, Object>>) ((Map<String, Object>) choice.get("logprobs"))
                .get("content");
        long even = tokens.stream().filter(t -> Integer.parseInt(((String) t.get("token")).substring(9)) % 2 == 0)
                .count();
        return tokens.isEmpty() ? 0 : (double) even / tokens.size();
    }

    @SuppressWarnings("unchecked")
    private static void checkEvents(String job, int step, String model) {
        List<Map<String, Object>> events = api.get("/v1/preview/training-jobs/" + job + "/events").data();
        List<String> types = events.stream().map(e -> (String) e.get("type")).toList();
        assertEquals("training_started", types.getFirst(), types.toString());
        assertEquals("training_ended", types.getLast(), types.toString());
        Map<String, Object> started = (Map<String, Object>) events.getFirst().get("data");
        int planned = ((Number) started.get("num_sequences")).intValue();
        assertEquals(planned, types.stream().filter("gradient_step"::equals).count(), types.toString());
        for (Map<String, Object> e : events) {
            if (e.get("type").equals("gradient_step")) {
                Map<String, Object> data = (Map<String, Object>) e.get("data");
                for (String key : List.of("loss", "grad_norm", "learning_rate", "entropy", "num_trainable_tokens",
                        "tokens_per_second")) {
                    assertTrue(data.get(key) instanceof Number, key + " in " + data);
                }
            }
        }
        List<Map<String, Object>> checkpoints = api.get("/v1/preview/models/" + model + "/checkpoints?order=desc")
                .data();
        assertEquals(step, ((Number) checkpoints.getFirst().get("step")).intValue());
        assertTrue(((Map<String, Object>) checkpoints.getFirst().get("metrics")).containsKey("train/reward"));
    }
}
