package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crucible.application.completion.StoredCompletionWriter;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.RewardBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Datasets through HTTP on the tiny model: stored completions (store: true) rated through the feedback API with
 * their call refs become each kind of dataset, downloaded as JSONL; an SFT job trains on a dataset id; the
 * checkpoint's lineage names the dataset, its completions and feedback, and an RL job's names its RL dataset; deleting a completion or purging a feedback
 * row names the checkpoint; another entity gets 404 everywhere; bad input is a 400 naming the field.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatasetsIT {

    static final String ROUTE = "/v1/datasets";
    private static final ObjectMapper JSON = new ObjectMapper();

    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.datasets.max-rows", 4));
    private final String aliceKey = server.newKey("alice");
    private final Api alice = server.api(aliceKey);
    private final Api weave = server.api(null).withBasic(aliceKey);
    private final Api mallory = server.api(server.newKey("mallory"));
    /** Completion id to its feedback row ids: "rating" {score} and "thumbs" {value}. */
    private final Map<String, List<String>> feedback = new LinkedHashMap<>();
    private final List<String> ups = new ArrayList<>();

    /**
     * Seven stored completions: three answers to "Q1" rated 5, 1, 3; two to "Q2" rated 4, 2; two to "Q3" unrated.
     * Thumbs up on the ones rated 4 or more.
     */
    @BeforeAll
    void seed() throws Exception {
        Map<String, int[]> ratings = new LinkedHashMap<>();
        ratings.put("Q1", new int[] {5, 1, 3});
        ratings.put("Q2", new int[] {4, 2});
        ratings.put("Q3", new int[] {-1, -1});
        for (Map.Entry<String, int[]> question : ratings.entrySet()) {
            for (int score : question.getValue()) {
                String id = storeOne(alice, question.getKey(), Map.of("run", "seed"));
                if (score >= 0) {
                    rate(id, "rating", Map.of("score", score));
                    rate(id, "thumbs", Map.of("value", score >= 4 ? "up" : "down"));
                    if (score >= 4) {
                        ups.add(id);
                    }
                }
            }
        }
        storeOne(mallory, "Q1", Map.of("run", "seed"));
        server.bean(StoredCompletionWriter.class).flushed().get(30, TimeUnit.SECONDS);
    }

    static String storeOne(Api api, String question, Map<String, String> metadata) {
        Api.Reply reply = api.post("/v1/chat/completions", RequestBodies.chat(question, "store", true,
                "metadata", metadata, "max_tokens", 4));
        assertEquals(200, reply.status(), reply.toString());
        return reply.text("id");
    }

    private void rate(String completion, String type, Map<String, Object> payload) {
        Api.Reply created = weave.post("/feedback/create", RequestBodies.feedback("alice/default", type, payload,
                "weave_ref", "weave:///alice/default/call/" + completion));
        assertEquals(200, created.status(), created.toString());
        feedback.computeIfAbsent(completion, k -> new ArrayList<>()).add(created.text("id"));
    }

    static Map<String, Object> body(String kind, Map<String, Object> feedback, Object... pairs) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", kind + " set");
        body.put("kind", kind);
        body.put("filter", Map.of("metadata", Map.of("run", "seed")));
        body.put("feedback", feedback);
        return RequestBodies.with(body, pairs);
    }

    private List<Map<String, Object>> content(Api api, String id) throws Exception {
        Api.Bytes bytes = api.download(ROUTE + "/" + id + "/content");
        assertEquals(200, bytes.status(), new String(bytes.body(), StandardCharsets.UTF_8));
        List<Map<String, Object>> lines = new ArrayList<>();
        for (String line : new String(bytes.body(), StandardCharsets.UTF_8).split("\n")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> parsed = JSON.readValue(line, Map.class);
            lines.add(parsed);
        }
        return lines;
    }

    private Map<String, Object> created(Map<String, Object> body) {
        Api.Reply reply = alice.post(ROUTE, body);
        assertEquals(200, reply.status(), reply.toString());
        return reply.json();
    }

    @Test
    @SuppressWarnings("unchecked")
    void eachKindIsBuiltFromTheFeedbackAndDownloadsAsJsonl() throws Exception {
        Map<String, Object> sft = created(body("sft", Map.of("type", "thumbs", "payload_path", "value",
                "equals", "up")));
        assertEquals("dataset", sft.get("object"));
        assertEquals("sft", sft.get("kind"));
        assertEquals("default", sft.get("project"));
        assertEquals(2, sft.get("rows"));
        assertEquals(Map.of("type", "thumbs", "payload_path", "value", "equals", "up"), sft.get("feedback"));
        List<Map<String, Object>> chats = content(alice, (String) sft.get("id"));
        assertEquals(2, chats.size());
        List<Map<String, Object>> messages = (List<Map<String, Object>>) chats.getFirst().get("messages");
        assertEquals(Map.of("role", "user", "content", "Q1"), messages.getFirst());
        assertEquals("assistant", messages.getLast().get("role"));

        Map<String, Object> preference = created(body("preference", Map.of("type", "rating",
                "payload_path", "score")));
        assertEquals(2, preference.get("rows"), "one pair for Q1 (5 over 1) and one for Q2 (4 over 2)");
        Map<String, Object> pair = content(alice, (String) preference.get("id")).getFirst();
        assertEquals(Map.of("messages", List.of(Map.of("role", "user", "content", "Q1"))), pair.get("input"));
        assertEquals(1, ((List<?>) pair.get("preferred_output")).size());
        assertEquals(1, ((List<?>) pair.get("non_preferred_output")).size());

        Map<String, Object> rl = created(body("rl", Map.of("type", "rating", "payload_path", "score")));
        assertEquals(2, rl.get("rows"));
        List<Map<String, Object>> groups = content(alice, (String) rl.get("id"));
        List<Map<String, Object>> q1 = (List<Map<String, Object>>) groups.getFirst().get("trajectories");
        assertEquals(List.of(5.0, 1.0, 3.0), q1.stream().map(t -> ((Number) t.get("reward")).doubleValue())
                .toList());

        Api.Reply got = alice.get(ROUTE + "/" + rl.get("id"));
        assertEquals(rl, got.json());
        Api.Reply page = alice.get(ROUTE + "?limit=1&after=" + sft.get("id"));
        assertEquals(200, page.status(), page.toString());
        assertEquals(List.of(preference.get("id")), page.data().stream().map(d -> d.get("id")).toList());
        assertEquals(true, page.json().get("has_more"));

        String id = (String) rl.get("id");
        mallory.get(ROUTE + "/" + id).assertRefused(404, "dataset_id");
        assertEquals(404, mallory.download(ROUTE + "/" + id + "/content").status());
        mallory.delete(ROUTE + "/" + id, null).assertRefused(404, "dataset_id");
        assertTrue(mallory.get(ROUTE).data().stream().noneMatch(d -> id.equals(d.get("id"))));

        assertEquals(Map.of("id", id, "object", "dataset.deleted", "deleted", true),
                alice.delete(ROUTE + "/" + id, null).json());
        alice.get(ROUTE + "/" + id).assertRefused(404, "dataset_id");
    }

    @Test
    @SuppressWarnings("unchecked")
    void anRlDatasetTakesItsRewardsFromARewardModel() throws Exception {
        String rewardModel = alice.post("/v1/reward-models", RewardBodies.create("judge", 40, 3)).text("id");
        mallory.post(ROUTE, body("rl", Map.of("type", "rating"), "reward", Map.of("model", rewardModel)))
                .assertRefused(404, "reward.model");
        Map<String, Object> body = body("rl", Map.of(), "reward", Map.of("model", rewardModel));
        body.remove("feedback");
        Map<String, Object> scored = created(body);
        assertEquals(Map.of("model", rewardModel), scored.get("reward"));
        assertEquals(null, scored.get("feedback"));
        assertEquals(0, scored.get("feedback_count"), "the reward model scored; no feedback row decided");
        List<Map<String, Object>> groups = content(alice, (String) scored.get("id"));
        assertEquals(3, groups.size(), "Q1, Q2 and Q3, every answer scored");
        for (Map<String, Object> group : groups) {
            for (Map<String, Object> t : (List<Map<String, Object>>) group.get("trajectories")) {
                double reward = ((Number) t.get("reward")).doubleValue();
                assertTrue(reward >= 0 && reward <= 1, String.valueOf(reward));
            }
        }
    }

    @Test
    void anEmptyOrOversizedDatasetAndBadFiltersAreRefusedNamingTheField() {
        alice.post(ROUTE, body("sft", Map.of("type", "thumbs", "payload_path", "value", "equals", "sideways")))
                .assertRefused(400, "filter", "none passing");
        alice.post(ROUTE, body("sft", Map.of("type", "thumbs"), "filter", Map.of("model", "no-such-model")))
                .assertRefused(400, "filter", "matched 0 stored completion");
        alice.post(ROUTE, body("sft", Map.of("type", "thumbs"), "filter", Map.of())).assertRefused(413, "filter",
                "crucible.datasets.max-rows");
        alice.post(ROUTE, body("dpo", Map.of("type", "rating"))).assertRefused(400, "kind");
        alice.post(ROUTE, body("rl", Map.of("type", "rating"))).assertRefused(400, "feedback.payload_path");
        alice.post(ROUTE, body("sft", Map.of("type", "rating", "min", 3))).assertRefused(400,
                "feedback.payload_path");
        alice.post(ROUTE, body("sft", Map.of("type", "rating", "payload_path", "score", "min", 4, "max", 1)))
                .assertRefused(400, "feedback.min");
        alice.post(ROUTE, body("sft", Map.of("type", "rating"), "filter", Map.of("created_after", "yesterday")))
                .assertRefused(400, "filter.created_after");
        alice.post(ROUTE, body("sft", Map.of("type", "rating"), "filter", Map.of("created_after", 20,
                "created_before", 10))).assertRefused(400, "filter.created_before");
        alice.post(ROUTE, body("sft", Map.of("type", "rating"), "filter", Map.of("metadata", Map.of("k", 1))))
                .assertRefused(400, "filter.metadata.k");
        alice.post(ROUTE, body("sft", Map.of("type", "rating"), "filter", Map.of("colour", "red")))
                .assertRefused(400, "filter.colour");
        alice.post(ROUTE, body("sft", Map.of("type", "rating"), "project", "a/b")).assertRefused(400, "project");
        alice.post(ROUTE, body("rl", Map.of("type", "rating", "payload_path", "score"), "reward",
                Map.of("model", "rm-1"))).assertRefused(404, "reward.model");
        alice.post(ROUTE, body("sft", Map.of("type", "rating"), "reward", Map.of("model", "rm-1")))
                .assertRefused(400, "reward");
        alice.post(ROUTE, Map.of("name", "x", "kind", "sft")).assertRefused(400, "feedback");
        alice.get(ROUTE + "?after=file-1").assertRefused(400, "after");
        alice.get(ROUTE + "/dataset-nope").assertRefused(404, "dataset_id");
    }

    @Test
    @SuppressWarnings("unchecked")
    void anSftJobTrainsOnADatasetAndItsCheckpointsLineageNamesEveryRowThatWentIn() throws Exception {
        String q4 = storeOne(alice, "Q4", Map.of("run", "job"));
        String q5 = storeOne(alice, "Q5", Map.of("run", "job"));
        server.bean(StoredCompletionWriter.class).flushed().get(30, TimeUnit.SECONDS);
        rate(q4, "thumbs", Map.of("value", "up"));
        rate(q5, "thumbs", Map.of("value", "up"));
        Map<String, Object> dataset = created(body("sft", Map.of("type", "thumbs", "payload_path", "value",
                "equals", "up"), "filter", Map.of("metadata", Map.of("run", "job"))));
        String datasetId = (String) dataset.get("id");

        String model = alice.post("/v1/preview/models", RequestBodies.createModel("p", "from-data")).text("id");
        String rlSet = (String) created(body("rl", Map.of("type", "rating", "payload_path", "score"))).get("id");
        alice.post("/v1/preview/sft-training-jobs", Map.of("model_id", model, "training_data_url", rlSet))
                .assertRefused(400, "training_data_url", "sft dataset");
        mallory.post("/v1/preview/sft-training-jobs", Map.of("model_id", model, "training_data_url", datasetId))
                .assertRefused(404, "training_data_url");
        String job = alice.post("/v1/preview/sft-training-jobs", Map.of("model_id", model,
                "training_data_url", datasetId, "config", Map.of("batch_size", 2))).text("id");
        Await.until(() -> alice.get("/v1/preview/training-jobs/" + job).text("status"),
                s -> s.equals("COMPLETED") || s.equals("FAILED"), Duration.ofSeconds(120));
        Map<String, Object> record = alice.get("/v1/preview/training-jobs/" + job).json();
        assertEquals("COMPLETED", record.get("status"), record.toString());

        String route = "/v1/preview/models/" + model + "/checkpoints/1/lineage";
        Map<String, Object> lineage = alice.get(route).json();
        assertEquals("checkpoint.lineage", lineage.get("object"));
        List<Map<String, Object>> datasets = (List<Map<String, Object>>) lineage.get("datasets");
        assertEquals(List.of(datasetId), datasets.stream().map(d -> d.get("id")).toList());
        assertEquals(List.of(q4, q5), datasets.getFirst().get("completion_ids"));
        assertEquals(List.of(feedback.get(q4).getLast(), feedback.get(q5).getLast()),
                datasets.getFirst().get("feedback_ids"));
        assertEquals(List.of(), alice.get("/v1/preview/models/" + model + "/checkpoints/0/lineage").json()
                .get("datasets"));
        alice.get("/v1/preview/models/" + model + "/checkpoints/7/lineage").assertRefused(404, "step");
        alice.get("/v1/preview/models/" + model + "/checkpoints/x/lineage").assertRefused(400, "step");
        mallory.get(route).assertRefused(404, "model_id");

        List<Map<String, Object>> checkpoint = List.of(Map.of("model_id", model, "step", 1));
        alice.delete(ROUTE + "/" + datasetId, null).assertRefused(409, "dataset_id", model + "@1");
        Map<String, Object> purged = weave.post("/feedback/purge", Map.of("project_id", "alice/default", "query",
                Map.of("$expr", Map.of("$eq", List.of(Map.of("$getField", "id"),
                        Map.of("$literal", feedback.get(q5).getLast())))))).json();
        assertEquals(Map.of("checkpoints", checkpoint), purged);
        Api.Reply deleted = alice.delete("/v1/chat/completions/" + q4, null);
        assertEquals(200, deleted.status(), deleted.toString());
        assertEquals(checkpoint, deleted.json().get("checkpoints"));
        assertEquals(true, deleted.json().get("deleted"));
        assertEquals(List.of(q4, q5), ((List<Map<String, Object>>) alice.get(route).json().get("datasets"))
                .getFirst().get("completion_ids"), "the snapshot outlives the rows it was built from");

        alice.post("/v1/preview/training-jobs", Map.of("model_id", model, "dataset_id", datasetId))
                .assertRefused(400, "dataset_id", "rl dataset");
        mallory.post("/v1/preview/training-jobs", Map.of("model_id", model, "dataset_id", rlSet))
                .assertRefused(404, "dataset_id");
        alice.post("/v1/preview/training-jobs", Map.of("model_id", model, "dataset_id", rlSet,
                "trajectory_groups", List.of())).assertRefused(400, "trajectory_groups");
        String rlJob = alice.post("/v1/preview/training-jobs", Map.of("model_id", model, "dataset_id", rlSet))
                .text("id");
        Await.until(() -> alice.get("/v1/preview/training-jobs/" + rlJob).text("status"),
                s -> s.equals("COMPLETED") || s.equals("FAILED"), Duration.ofSeconds(120));
        Map<String, Object> rlRecord = alice.get("/v1/preview/training-jobs/" + rlJob).json();
        assertEquals("COMPLETED", rlRecord.get("status"), rlRecord.toString());
        List<Map<String, Object>> rlLineage = (List<Map<String, Object>>) alice.get("/v1/preview/models/" + model
                + "/checkpoints/2/lineage").json().get("datasets");
        assertEquals(List.of(rlSet), rlLineage.stream().map(d -> d.get("id")).toList());
    }
}
