package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.completion.StoredCompletionWriter;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.OpenApiContract;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.RewardBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The OpenAPI document at {@code /openapi.json} against the server's real answers: a client walks every documented
 * operation (successes and refusals) and each answer must keep the document ({@link OpenApiContract}: a documented
 * status and content type, a body valid against its schema); every documented operation must be walked, so a route
 * added without a test here fails too. Swagger UI is served at {@code /docs} from its webjar.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiIT {

    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final String key = server.newKey("olive");

    @SuppressWarnings("unchecked")
    private OpenApiContract contract() {
        Api.Reply document = server.api(null).get("/openapi.json");
        assertEquals(200, document.status(), document.toString());
        assertEquals("3.1.0", document.json().get("openapi"));
        return new OpenApiContract(document.json());
    }

    @Test
    void everyOperationAnswersAsTheDocumentSays() {
        OpenApiContract contract = contract();
        Api api = server.api(key).observedBy(contract);
        Api anonymous = server.api(null).observedBy(contract);
        Api weave = api.withBasic(key);

        anonymous.get("/v1/health");
        anonymous.get("/v1/system-check");
        anonymous.get("/v1/health/ready");
        api.download("/metrics");
        anonymous.get("/v1/models");

        api.get("/v1/models");
        api.post("/v1/chat/completions", RequestBodies.chat("Hi", "max_tokens", 3));
        api.post("/v1/chat/completions", RequestBodies.chat("Hi", "max_tokens", 0));
        api.stream("/v1/chat/completions", RequestBodies.chat("Hi", "max_tokens", 2, "stream", true));
        long hourAgo = java.time.Instant.now().getEpochSecond() - 3600;
        api.get("/v1/organization/usage/completions?start_time=" + hourAgo + "&bucket_width=1h&group_by=model");
        api.get("/v1/organization/usage/completions?bucket_width=2h");
        api.get("/v1/organization/usage/training?start_time=" + hourAgo + "&group_by=project_id");
        api.get("/v1/organization/usage/training?bucket_width=2h");

        String model = api.post("/v1/preview/models", RequestBodies.createModel("docs", "walked")).text("id");
        api.post("/v1/preview/models", Map.of("project", "docs"));
        api.get("/v1/preview/models?limit=5");
        api.get("/v1/preview/models/" + model + "/checkpoints");
        api.post("/v1/preview/models/" + model + "/log", Map.of("split", "val",
                "trajectory_groups", RequestBodies.trajectoryGroups(0.2, 0.9)));
        api.upload("/v1/preview/models/" + model + "/checkpoints", Map.of(), "adapter", "adapter.zip",
                "not a zip".getBytes(StandardCharsets.UTF_8));
        api.download("/v1/preview/models/" + model + "/checkpoints/0/adapter");

        Api.Reply file = api.upload("/v1/files", Map.of("purpose", "fine-tune"), "chats.jsonl",
                "{\"messages\":[{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"assistant\",\"content\":\"b\"}]}\n"
                        .getBytes(StandardCharsets.UTF_8));
        String fileId = file.text("id");
        api.get("/v1/files?limit=2");
        api.get("/v1/files/" + fileId);
        api.download("/v1/files/" + fileId + "/content");
        api.post("/v1/preview/sft-training-jobs", Map.of("model_id", model, "training_data_url", fileId));
        api.post("/v1/preview/sft-training-jobs", Map.of("model_id", model));

        String job = api.post("/v1/preview/training-jobs", RequestBodies.rlJob(model)).text("id");
        api.post("/v1/preview/training-jobs", Map.of("model_id", "not-a-uuid"));
        Await.until(() -> api.get("/v1/preview/training-jobs/" + job).text("status"),
                status -> Set.of("COMPLETED", "FAILED").contains(status), Duration.ofMinutes(3));
        api.get("/v1/preview/training-jobs?limit=3");
        api.get("/v1/preview/training-jobs/" + job + "/events?limit=50");
        api.download("/v1/preview/training-jobs/" + job + "/events/stream");
        api.get("/v1/preview/training-jobs/00000000-0000-0000-0000-000000000000");

        weave.post("/obj/create", Map.of("obj", Map.of("project_id", "olive/docs", "object_id", "score",
                "val", Map.of("_type", "AnnotationSpec", "name", "score"))));
        weave.post("/obj/read", Map.of("project_id", "olive/docs", "object_id", "score", "digest", "nope"));
        Map<String, Object> feedback = RequestBodies.with(new HashMap<>(), "project_id", "olive/docs",
                "weave_ref", "weave:///olive/docs/object/answer:abc", "feedback_type", "custom",
                "payload", Map.of("score", 1));
        String feedbackId = (String) weave.post("/feedback/create", feedback).json().get("id");
        feedback.put("feedback_id", feedbackId);
        weave.post("/feedback/replace", feedback);
        weave.post("/feedback/query", Map.of("project_id", "olive/docs", "limit", 5));
        weave.post("/feedback/purge", Map.of("project_id", "olive/docs", "query", Map.of("$expr",
                Map.of("$eq", List.of(Map.of("$getField", "id"), Map.of("$literal", "nobody"))))));
        weave.post("/feedback/create", Map.of("project_id", "olive/docs"));

        String stored = api.post("/v1/chat/completions", RequestBodies.chat("Keep", "max_tokens", 2, "store", true,
                "metadata", Map.of("walk", "docs"))).text("id");
        server.bean(StoredCompletionWriter.class).flushed().join();
        api.get("/v1/chat/completions?metadata[walk]=docs&limit=5");
        api.get("/v1/chat/completions?limit=0");
        api.get("/v1/chat/completions/" + stored);
        api.get("/v1/chat/completions/" + stored + "/messages?limit=5");
        api.post("/v1/chat/completions/" + stored, Map.of("metadata", Map.of("walk", "again")));
        weave.post("/feedback/create", Map.of("project_id", "olive/default", "weave_ref",
                "weave:///olive/default/call/" + stored, "feedback_type", "thumbs", "payload", Map.of("value", "up")));
        String dataset = api.post("/v1/datasets", Map.of("name", "walked", "kind", "sft", "feedback",
                Map.of("type", "thumbs", "payload_path", "value", "equals", "up"))).text("id");
        api.post("/v1/datasets", Map.of("name", "walked", "kind", "sft"));
        api.get("/v1/datasets?limit=2");
        api.get("/v1/datasets/" + dataset);
        api.download("/v1/datasets/" + dataset + "/content");
        api.get("/v1/preview/models/" + model + "/checkpoints/0/lineage");
        api.get("/v1/preview/models/" + model + "/checkpoints/9/lineage");
        api.delete("/v1/datasets/" + dataset, null);
        api.get("/v1/datasets/" + dataset);
        api.delete("/v1/chat/completions/" + stored, null);
        api.get("/v1/chat/completions/" + stored);
        String reward = api.post("/v1/reward-models", RewardBodies.create("docs", 20, 1)).text("id");
        api.post("/v1/reward-models", RewardBodies.create("docs", 3, 1));
        api.get("/v1/reward-models?limit=2");
        api.get("/v1/reward-models/" + reward);
        api.post("/v1/reward-models/" + reward + "/score", Map.of("items", List.of(Map.of("prompt", "p",
                "answer", "a"))));
        api.post("/v1/reward-models/" + reward + "/score", Map.of("items", List.of()));
        api.delete("/v1/reward-models/" + reward, null);
        api.get("/v1/reward-models/" + reward);

        api.delete("/v1/preview/models/" + model + "/checkpoints", Map.of("steps", List.of(7)));
        api.delete("/v1/files/" + fileId, null);
        api.delete("/v1/preview/models/" + model, null);
        api.delete("/v1/preview/models/" + model, null);

        assertEquals(List.of(), contract.violations());
        Set<String> missed = new TreeSet<>(contract.operations());
        missed.removeAll(contract.covered());
        assertEquals(Set.of(), missed, "documented operations no exchange reached");
    }

    @Test
    void theDocumentNamesItsSecuritySchemesAndErrorEnvelope() {
        Map<String, Object> document = server.api(null).get("/openapi.json").json();
        Map<?, ?> components = (Map<?, ?>) document.get("components");
        assertEquals(Set.of("apiKey", "weaveBasic"), ((Map<?, ?>) components.get("securitySchemes")).keySet());
        assertTrue(((Map<?, ?>) components.get("schemas")).containsKey("ErrorEnvelope"));
        Map<?, ?> chat = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) document.get("paths")).get("/v1/chat/completions"))
                .get("post");
        assertEquals(List.of(Map.of("apiKey", List.of())), chat.get("security"));
        assertTrue(((Map<?, ?>) chat.get("responses")).containsKey("default"), chat.toString());
    }

    @Test
    void swaggerUiIsServedFromThisServer() {
        Api.Bytes page = server.api(null).download("/docs/index.html");
        assertEquals(200, page.status());
        String html = new String(page.body(), StandardCharsets.UTF_8);
        assertTrue(html.contains("/docs/swagger-ui-bundle.js"), html);
        Api.Bytes bundle = server.api(null).download("/docs/swagger-ui-bundle.js");
        assertEquals(200, bundle.status());
        assertTrue(bundle.body().length > 100_000, "Swagger UI's bundle from its webjar");
        assertTrue(bundle.headers().get("content-security-policy").getFirst().contains("default-src 'self'"));
        assertEquals(404, server.api(null).download("/docs/../application.yml").status());
    }
}
