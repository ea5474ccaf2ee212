package dev.crucible.server.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SFT through the public API on a small synthetic task: after one job the tiny model answers each taught question
 * greedily with the taught answer, and the loss it reported fell along the way. A dataset with a bad line fails the
 * job with a message naming the line.
 */
class SftLearningIT {

    private static final Map<String, String> TAUGHT = Map.of("Favourite colour?", "blue", "Capital of France?",
            "Paris", "Two plus two?", "four");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static TestServer server;
    private static Api api;
    private static Path imports;

    @BeforeAll
    static void start() throws Exception {
        imports = Files.createTempDirectory("crucible-imports");
        server = TestServer.start(Map.of("crucible.training-data.import-directory", imports.toString()));
        api = server.api(server.newKey("sft"));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String dataset(String name, List<String> lines) throws Exception {
        Path file = imports.resolve("datasets").resolve(name);
        Files.createDirectories(file.getParent());
        Files.write(file, lines);
        return file.toUri().toString();
    }

    private static String job(String model, String url, Map<String, Object> config) {
        Map<String, Object> body = new HashMap<>();
        body.put("model_id", model);
        body.put("training_data_url", url);
        body.put("config", config);
        String id = api.post("/v1/preview/sft-training-jobs", body).text("id");
        Await.until(() -> api.get("/v1/preview/training-jobs/" + id).text("status"),
                s -> s.equals("COMPLETED") || s.equals("FAILED"), Duration.ofSeconds(120));
        return id;
    }

    @Test
    @SuppressWarnings("unchecked")
    void theTrainedModelGivesTheTaughtAnswersGreedilyAndTheLossFell() throws Exception {
        String model = api.post("/v1/preview/models", RequestBodies.createModel("p", "student")).text("id");
        List<String> lines = new ArrayList<>();
        for (int epoch = 0; epoch < 10; epoch++) {
            for (Map.Entry<String, String> e : TAUGHT.entrySet()) {
                lines.add(JSON.writeValueAsString(Map.of("messages", List.of(
                        Map.of("role", "user", "content", e.getKey()),
                        Map.of("role", "assistant", "content", e.getValue())))));
            }
        }
        String id = job(model, dataset("taught.jsonl", lines), Map.of("batch_size", 3, "learning_rate", 1e-2));
        Map<String, Object> record = api.get("/v1/preview/training-jobs/" + id).json();
        assertEquals("COMPLETED", record.get("status"), record.toString());

        List<Double> losses = new ArrayList<>();
        for (Map<String, Object> e : api.get("/v1/preview/training-jobs/" + id + "/events?limit=100").data()) {
            if (e.get("type").equals("gradient_step")) {
                losses.add(((Number) ((Map<String, Object>) e.get("data")).get("loss")).doubleValue());
            }
        }
        assertEquals(10, losses.size(), "30 lines in batches of 3");
        System.out.println("SFT loss by step: " + losses);
        assertTrue(losses.getLast() < losses.getFirst() / 5, losses.toString());

        for (Map.Entry<String, String> e : TAUGHT.entrySet()) {
            String latest = answer("crucible:///sft/p/student", e.getKey());
            assertEquals(latest, answer("crucible:///sft/p/student:step1", e.getKey()), "step 1 is the latest");
            assertTrue(!answer("crucible:///sft/p/student:step0", e.getKey()).strip().endsWith(e.getValue()),
                    "step 0 is still the untrained base");
        }
        for (Map.Entry<String, String> e : TAUGHT.entrySet()) {
            Map<String, Object> body = new HashMap<>();
            body.put("model", "crucible:///sft/p/student");
            body.put("messages", List.of(Map.of("role", "user", "content", e.getKey())));
            body.put("max_tokens", 16);
            body.put("temperature", 0);
            Api.Reply reply = api.post("/v1/chat/completions", body);
            Map<String, Object> choice = ((List<Map<String, Object>>) reply.json().get("choices")).getFirst();
            String content = (String) ((Map<String, Object>) choice.get("message")).get("content");
            assertTrue(content.strip().endsWith(e.getValue()), e.getKey() + " -> " + content);
            assertEquals("stop", choice.get("finish_reason"), e.getKey() + " -> " + content);
        }
    }

    @SuppressWarnings("unchecked")
    private static String answer(String model, String question) {
        Map<String, Object> body = new HashMap<>();
        body.put("model", model);
        body.put("messages", List.of(Map.of("role", "user", "content", question)));
        body.put("max_tokens", 16);
        body.put("temperature", 0);
        Api.Reply reply = api.post("/v1/chat/completions", body);
        assertEquals(200, reply.status(), reply.toString());
        Map<String, Object> choice = ((List<Map<String, Object>>) reply.json().get("choices")).getFirst();
        return (String) ((Map<String, Object>) choice.get("message")).get("content");
    }

    @Test
    void aBadLineFailsTheJobNamingTheLine() throws Exception {
        String model = api.post("/v1/preview/models", RequestBodies.createModel("p", "broken")).text("id");
        String good = JSON.writeValueAsString(Map.of("messages", List.of(Map.of("role", "user", "content", "q"),
                Map.of("role", "assistant", "content", "a"))));
        String url = dataset("bad.jsonl", List.of(good, "{\"messages\": [{\"role\": \"user\", \"content\": \"q\"}]}"));
        String id = job(model, url, Map.of());
        Map<String, Object> record = api.get("/v1/preview/training-jobs/" + id).json();
        assertEquals("FAILED", record.get("status"));
        assertTrue(((String) record.get("error_message")).contains("line 2"), record.toString());
        assertEquals(0, ((Number) api.get("/v1/preview/models/" + model + "/checkpoints?order=desc").data().getFirst()
                .get("step")).intValue(), "a failed job makes no checkpoint");
    }
}
