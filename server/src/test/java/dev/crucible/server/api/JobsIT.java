package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Training jobs on the real server, which has no engine that can train yet. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobsIT {

    private TestServer server;
    private Api api;
    private String modelId;
    private Path imports;

    @BeforeAll
    void start() throws IOException {
        imports = Files.createTempDirectory("crucible-imports");
        server = TestServer.start(Map.of("crucible.training-data.import-directory", imports.toString()));
        api = server.api(server.newKey("bob"));
        modelId = api.post("/v1/preview/models", RequestBodies.createModel("p", "m")).text("id");
    }

    @AfterAll
    void stop() {
        server.close();
    }

    private Map<String, Object> finished(String jobId) {
        return Await.until(() -> api.get("/v1/preview/training-jobs/" + jobId).json(),
                job -> !List.of("QUEUED", "RUNNING").contains(job.get("status")), Duration.ofSeconds(20));
    }

    @Test
    void rlJobIsQueuedAtOnceThenTrainsTheNextCheckpoint() {
        Api.Reply created = api.post("/v1/preview/training-jobs", RequestBodies.rlJob(modelId));
        assertEquals(200, created.status(), created.toString());
        assertEquals("training_job", created.json().get("object"));
        assertEquals("rl", created.json().get("type"));
        assertEquals(modelId, created.json().get("model_id"));
        assertTrue(List.of("QUEUED", "RUNNING", "COMPLETED").contains(created.json().get("status")));

        Map<String, Object> job = finished(created.text("id"));
        assertEquals("COMPLETED", job.get("status"), job.toString());
        assertNotNull(job.get("training_end"));
        assertNull(job.get("error_message"));
        int step = ((Number) job.get("result_step")).intValue();

        Api.Reply events = api.get("/v1/preview/training-jobs/" + created.text("id") + "/events");
        assertEquals(200, events.status());
        List<String> types = events.data().stream().map(e -> (String) e.get("type")).toList();
        assertEquals(List.of("training_started", "gradient_step", "training_ended"), types);
        Map<String, Object> last = events.data().getLast();
        assertEquals("training_job.event", last.get("object"));
        assertEquals(step, ((Number) ((Map<?, ?>) last.get("data")).get("step")).intValue());
        assertEquals(false, events.json().get("has_more"));
        Map<?, ?> started = (Map<?, ?>) events.data().getFirst().get("data");
        assertEquals(1, ((Number) started.get("num_sequences")).intValue(), "one trainable trajectory, one row");
        Path folder = server.adapterFolder(modelId, step).orElseThrow();
        assertTrue(Files.isRegularFile(folder.resolve("adapter_model.safetensors")), "the checkpoint's PEFT adapter");
        assertTrue(Files.isRegularFile(folder.resolve("optimizer.safetensors")), "AdamW's state for the next job");

        Api.Reply after = api.get("/v1/preview/training-jobs/" + created.text("id") + "/events?after=" + last.get("id"));
        assertEquals(List.of(), after.data());
        assertEquals("", after.json().get("last_id"));
    }

    @Test
    void aJobWithNothingTrainableStillAdvancesTheStepWithAnUnchangedAdapter() throws Exception {
        String model = api.post("/v1/preview/models", RequestBodies.createModel("p", "idle")).text("id");
        Map<String, Object> body = new java.util.HashMap<>(RequestBodies.rlJob(model));
        body.put("trajectory_groups", RequestBodies.trajectoryGroups(1.0, 1.0));
        String id = api.post("/v1/preview/training-jobs", body).text("id");
        Map<String, Object> job = finished(id);
        assertEquals("COMPLETED", job.get("status"), job.toString());
        assertEquals(1, ((Number) job.get("result_step")).intValue());
        List<Map<String, Object>> events = api.get("/v1/preview/training-jobs/" + id + "/events").data();
        assertEquals(List.of("training_started", "training_ended"), events.stream().map(e -> e.get("type")).toList());
        assertEquals(0, ((Number) ((Map<?, ?>) events.getFirst().get("data")).get("num_sequences")).intValue());
        Path step1 = server.adapterFolder(model, 1).orElseThrow();
        assertTrue(Files.isRegularFile(step1.resolve("adapter_model.safetensors")), "step 1 is servable");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aTrajectoryWhoseTokensNameNothingFailsTheJobSayingWhere() {
        Map<String, Object> body = new java.util.HashMap<>(RequestBodies.rlJob(modelId));
        List<Map<String, Object>> groups = RequestBodies.trajectoryGroups(0.0, 1.0);
        Map<String, Object> group = new java.util.HashMap<>(groups.getFirst());
        List<Map<String, Object>> trajectories = new java.util.ArrayList<>(
                (List<Map<String, Object>>) group.get("trajectories"));
        Map<String, Object> b = new java.util.HashMap<>(trajectories.get(1));
        Map<String, Object> choice = Map.of("finish_reason", "stop", "index", 0,
                "message", Map.of("role", "assistant", "content", "4"),
                "logprobs", Map.of("content", List.of(Map.of("token", "no such token", "logprob", -0.1))));
        b.put("messages_and_choices", List.of(Map.of("role", "user", "content", "2+2?"), choice));
        trajectories.set(1, b);
        group.put("trajectories", trajectories);
        body.put("trajectory_groups", List.of(group));
        Map<String, Object> job = finished(api.post("/v1/preview/training-jobs", body).text("id"));
        assertEquals("FAILED", job.get("status"));
        assertTrue(((String) job.get("error_message")).startsWith("trajectory_groups[0].trajectories[1]"
                + ".messages_and_choices[1].logprobs.content[0].token 'no such token' names no token"), job.toString());
    }

    /** An RL job whose second trajectory's sampled choice is {@code choice}. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> rlJobWithChoice(Map<String, Object> choice) {
        Map<String, Object> body = new java.util.HashMap<>(RequestBodies.rlJob(modelId));
        Map<String, Object> group = new java.util.HashMap<>(RequestBodies.trajectoryGroups(0.0, 1.0).getFirst());
        List<Map<String, Object>> trajectories = new java.util.ArrayList<>(
                (List<Map<String, Object>>) group.get("trajectories"));
        Map<String, Object> b = new java.util.HashMap<>(trajectories.get(1));
        b.put("messages_and_choices", List.of(Map.of("role", "user", "content", "2+2?"), choice));
        trajectories.set(1, b);
        group.put("trajectories", trajectories);
        body.put("trajectory_groups", List.of(group));
        return body;
    }

    private static Map<String, Object> choiceWith(String key, Object value) {
        Map<String, Object> choice = new java.util.HashMap<>(Map.of("finish_reason", "stop", "index", 0,
                "message", Map.of("role", "assistant", "content", "4")));
        choice.put(key, value);
        return choice;
    }

    @Test
    void aMalformedChoiceIsA400NamingItsPathNotAFailedJobLater() {
        String at = "trajectory_groups[0].trajectories[1].messages_and_choices[1]";
        Map<String, Map<String, Object>> cases = new java.util.LinkedHashMap<>();
        cases.put(at + ".logprobs.content[0]", choiceWith("logprobs", Map.of("content", List.of("token_id:19"))));
        cases.put(at + ".logprobs.content[0].token", choiceWith("logprobs", Map.of("content",
                List.of(Map.of("token", "token_id:x19", "logprob", -0.1)))));
        cases.put(at + ".logprobs.content[0].logprob", choiceWith("logprobs", Map.of("content",
                List.of(Map.of("token", "token_id:19", "logprob", "low")))));
        cases.put(at + ".logprobs.content[0].bytes[1]", choiceWith("logprobs", Map.of("content",
                List.of(Map.of("token", "4", "logprob", -0.1, "bytes", List.of(52, 300))))));
        cases.put(at + ".logprobs.content", choiceWith("logprobs", Map.of("content", "token_id:19")));
        cases.put(at + ".logprobs", choiceWith("logprobs", List.of()));
        cases.put(at + ".token_ids[0]", choiceWith("token_ids", List.of(-1)));
        for (var c : cases.entrySet()) {
            Api.Reply reply = api.post("/v1/preview/training-jobs", rlJobWithChoice(c.getValue()));
            assertEquals(400, reply.status(), c.getKey() + ": " + reply);
            assertEquals(c.getKey(), reply.error().get("param"), reply.toString());
        }
        Api.Reply fine = api.post("/v1/preview/training-jobs", rlJobWithChoice(choiceWith("logprobs",
                Map.of("content", List.of(Map.of("token", "token_id:19", "logprob", -0.1, "bytes", List.of(52)))))));
        assertEquals(200, fine.status(), fine.toString());
    }

    @Test
    void trajectoryUploadsOfTensOfMegabytesAreAccepted() {
        List<Map<String, Object>> tokens = new java.util.ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            tokens.add(Map.of("token", "token_id:" + i, "logprob", -0.25, "bytes", List.of(97, 98), "top_logprobs", List.of()));
        }
        Map<String, Object> choice = Map.of("finish_reason", "length", "index", 0,
                "message", Map.of("role", "assistant", "content", "ab".repeat(200_000)), "logprobs", Map.of("content", tokens));
        Map<String, Object> trajectory = Map.of("messages_and_choices",
                List.of(Map.of("role", "user", "content", "go"), choice), "reward", 1.0);
        Map<String, Object> body = Map.of("model_id", modelId,
                "trajectory_groups", List.of(Map.of("trajectories", List.of(trajectory, trajectory))));
        Api.Reply reply = api.post("/v1/preview/training-jobs", body);
        assertEquals(200, reply.status(), "a ~30 MB upload fits the default body limit");
    }

    @Test
    void sftJobReadsAFileInsideTheImportDirectory() throws Exception {
        Path data = imports.resolve("datasets");
        Files.createDirectories(data);
        Path file = Files.writeString(data.resolve("train.jsonl"),
                "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}, {\"role\": \"assistant\", \"content\": \"hello\"}]}\n");
        Map<String, Object> body = Map.of("model_id", modelId, "training_data_url", file.toUri().toString(),
                "config", Map.of("batch_size", 2, "learning_rate", List.of(1e-4, 5e-5), "assistant_turns", "last"));
        Api.Reply created = api.post("/v1/preview/sft-training-jobs", body);
        assertEquals(200, created.status(), created.toString());
        assertEquals("sft", created.json().get("type"));
        Map<String, Object> job = finished(created.text("id"));
        assertEquals("COMPLETED", job.get("status"), job.toString());
        List<Map<String, Object>> events = api.get("/v1/preview/training-jobs/" + created.text("id") + "/events").data();
        assertEquals(List.of("training_started", "gradient_step", "training_ended"),
                events.stream().map(e -> e.get("type")).toList());
        assertEquals(1e-4, ((Number) ((Map<?, ?>) events.get(1).get("data")).get("learning_rate")).doubleValue(), 0.0,
                "the first batch's learning rate");
    }

    @Test
    void sftJobRefusesFilesOutsideTheImportDirectory() {
        Map<String, Object> body = Map.of("model_id", modelId, "training_data_url", "file:///etc/passwd");
        Api.Reply reply = api.post("/v1/preview/sft-training-jobs", body);
        assertEquals(400, reply.status());
        assertEquals("training_data_url", reply.error().get("param"));
    }

    /**
     * A second tenant aims file:// URLs at what the data directory holds (another tenant's upload, the embedded
     * database's configuration), directly, through {@code ..} and through a link in the import directory: each is
     * one 400 that names no server path and does not tell whether the file exists.
     */
    @Test
    void aSecondTenantCannotReadTheDataDirectoryThroughFileUrls() throws IOException {
        Api mallory = server.api(server.newKey("mallory"));
        String model = mallory.post("/v1/preview/models", RequestBodies.createModel("p", "m")).text("id");
        Path upload = Files.createDirectories(server.dataDir().resolve("files")).resolve("file-of-bob.jsonl");
        Files.writeString(upload, "{\"messages\": [{\"role\": \"assistant\", \"content\": \"bob's\"}]}\n");
        Path link = Files.createSymbolicLink(imports.resolve("looks-innocent.jsonl"), upload);
        List<String> attempts = List.of(upload.toUri().toString(), link.toUri().toString(),
                "file://" + imports + "/../" + upload.getParent().getParent().getFileName() + "/files/file-of-bob.jsonl",
                "file://" + server.dataDir() + "/postgres/postgresql.conf",
                "file://" + server.dataDir() + "/postgres/pg_hba.conf",
                "file://" + server.dataDir() + "/no-such-file");
        Set<Object> messages = new HashSet<>();
        for (String url : attempts) {
            Api.Reply reply = mallory.post("/v1/preview/sft-training-jobs", Map.of("model_id", model,
                    "training_data_url", url));
            assertEquals(400, reply.status(), url + " -> " + reply);
            assertEquals("training_data_url", reply.error().get("param"));
            String message = (String) reply.error().get("message");
            assertFalse(message.contains(server.dataDir().toString()) || message.contains(imports.toString()), message);
            messages.add(message);
        }
        assertEquals(1, messages.size(), "one message for every refusal, so none tells whether a path exists");
    }

    @Test
    void sftJobRefusesUnsupportedSchemesAndBadConfig() {
        Api.Reply scheme = api.post("/v1/preview/sft-training-jobs",
                Map.of("model_id", modelId, "training_data_url", "wandb-artifact:///e/p/data:v0"));
        assertEquals(400, scheme.status());
        assertEquals("training_data_url", scheme.error().get("param"));
        Api.Reply config = api.post("/v1/preview/sft-training-jobs", Map.of("model_id", modelId,
                "training_data_url", "https://example.com/d.jsonl", "config", Map.of("learning_rate", -1)));
        assertEquals(400, config.status());
        assertEquals("config.learning_rate", config.error().get("param"));
        Api.Reply turns = api.post("/v1/preview/sft-training-jobs", Map.of("model_id", modelId,
                "training_data_url", "https://example.com/d.jsonl", "config", Map.of("assistant_turns", "first")));
        assertEquals("config.assistant_turns", turns.error().get("param"));
    }

    @Test
    void rlJobValidatesConfigAndTrajectories() {
        Map<String, Object> config = new HashMap<>(Map.of("advantage_balance", 2.0));
        Api.Reply balance = api.post("/v1/preview/training-jobs", Map.of("model_id", modelId,
                "trajectory_groups", RequestBodies.trajectoryGroups(0, 1), "experimental_config", config));
        assertEquals(400, balance.status());
        assertEquals("experimental_config.advantage_balance", balance.error().get("param"));

        Api.Reply level = api.post("/v1/preview/training-jobs", Map.of("model_id", modelId,
                "trajectory_groups", RequestBodies.trajectoryGroups(0, 1),
                "experimental_config", Map.of("importance_sampling_level", "word")));
        assertEquals("experimental_config.importance_sampling_level", level.error().get("param"));

        Api.Reply empty = api.post("/v1/preview/training-jobs", Map.of("model_id", modelId, "trajectory_groups", List.of()));
        assertEquals(400, empty.status());
        assertEquals("trajectory_groups", empty.error().get("param"));

        Api.Reply reward = api.post("/v1/preview/training-jobs", Map.of("model_id", modelId, "trajectory_groups",
                List.of(Map.of("trajectories", List.of(Map.of("messages_and_choices", List.of(), "reward", "high"))))));
        assertEquals(400, reward.status());
        assertEquals("trajectory_groups[0].trajectories[0].reward", reward.error().get("param"));

        Api.Reply item = api.post("/v1/preview/training-jobs", Map.of("model_id", modelId, "trajectory_groups",
                List.of(Map.of("trajectories", List.of(Map.of("messages_and_choices", List.of(Map.of("content", "x"))))))));
        assertEquals(400, item.status());
        assertEquals("trajectory_groups[0].trajectories[0].messages_and_choices[0].role", item.error().get("param"));
    }

    @Test
    void unknownAndMalformedJobIdsAreNamed() {
        Api.Reply unknown = api.get("/v1/preview/training-jobs/00000000-0000-0000-0000-000000000000");
        assertEquals(404, unknown.status());
        assertEquals("training_job_id", unknown.error().get("param"));
        Api.Reply malformed = api.get("/v1/preview/training-jobs/not-a-uuid/events");
        assertEquals(400, malformed.status());
        assertEquals("training_job_id", malformed.error().get("param"));
        Api.Reply unknownModel = api.post("/v1/preview/training-jobs",
                RequestBodies.rlJob("00000000-0000-0000-0000-000000000000"));
        assertEquals(404, unknownModel.status());
        assertEquals("model_id", unknownModel.error().get("param"));
    }

    @Test
    void eventsAfterAnEventOfAnotherJobIsRefused() {
        String a = api.post("/v1/preview/training-jobs", RequestBodies.rlJob(modelId)).text("id");
        String b = api.post("/v1/preview/training-jobs", RequestBodies.rlJob(modelId)).text("id");
        finished(a);
        finished(b);
        String eventOfA = (String) api.get("/v1/preview/training-jobs/" + a + "/events").data().getFirst().get("id");
        Api.Reply reply = api.get("/v1/preview/training-jobs/" + b + "/events?after=" + eventOfA);
        assertEquals(400, reply.status());
        assertEquals("after", reply.error().get("param"));
    }
}
