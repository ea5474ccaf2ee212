package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.application.completion.StoredCompletionWriter;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * With {@code crucible.lineage.refuse-erasure}, deleting a stored completion or purging a feedback row that trained a
 * checkpoint is a 409 naming the checkpoint, and deletes nothing; once the checkpoint is deleted (with its model),
 * both go through.
 */
class ErasureRefusedIT {

    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.lineage.refuse-erasure", true));
    private final String key = server.newKey("erin");
    private final Api erin = server.api(key);
    private final Api weave = server.api(null).withBasic(key);

    @Test
    void aDeletionThatWouldEraseTrainedDataIsRefusedUntilTheCheckpointIsGone() throws Exception {
        String first = DatasetsIT.storeOne(erin, "Teach me", Map.of("run", "refuse"));
        String second = DatasetsIT.storeOne(erin, "Teach me more", Map.of("run", "refuse"));
        server.bean(StoredCompletionWriter.class).flushed().get(30, TimeUnit.SECONDS);
        String row = null;
        for (String completion : List.of(first, second)) {
            row = weave.post("/feedback/create", RequestBodies.feedback("erin/default", "thumbs",
                    Map.of("value", "up"), "weave_ref", "weave:///erin/default/call/" + completion)).text("id");
        }
        String dataset = erin.post(DatasetsIT.ROUTE, DatasetsIT.body("sft", Map.of("type", "thumbs"), "filter",
                Map.of("metadata", Map.of("run", "refuse")))).text("id");
        String model = erin.post("/v1/preview/models", RequestBodies.createModel("p", "kept")).text("id");
        String job = erin.post("/v1/preview/sft-training-jobs", Map.of("model_id", model, "training_data_url",
                dataset, "config", Map.of("batch_size", 2))).text("id");
        Await.until(() -> erin.get("/v1/preview/training-jobs/" + job).text("status"),
                s -> s.equals("COMPLETED") || s.equals("FAILED"), Duration.ofSeconds(120));
        assertEquals("COMPLETED", erin.get("/v1/preview/training-jobs/" + job).text("status"));

        erin.delete("/v1/chat/completions/" + first, null).assertRefused(409, "completion_id", model + "@1",
                "crucible.lineage.refuse-erasure");
        assertEquals(200, erin.get("/v1/chat/completions/" + first).status(), "nothing was deleted");
        Map<String, Object> purge = Map.of("project_id", "erin/default", "query", Map.of("$expr", Map.of("$eq",
                List.of(Map.of("$getField", "id"), Map.of("$literal", row)))));
        weave.post("/feedback/purge", purge).assertRefused(409, "ids", model + "@1");

        // Step 1 is the model's latest checkpoint, which only goes with the model.
        Api.Reply dropped = erin.delete("/v1/preview/models/" + model, null);
        assertEquals(200, dropped.status(), dropped.toString());
        Api.Reply deleted = erin.delete("/v1/chat/completions/" + first, null);
        assertEquals(200, deleted.status(), deleted.toString());
        assertEquals(List.of(), deleted.json().get("checkpoints"));
        assertEquals(Map.of("checkpoints", List.of()), weave.post("/feedback/purge", purge).json());
        assertEquals(200, erin.delete(DatasetsIT.ROUTE + "/" + dataset, null).status(),
                "no checkpoint holds the dataset any more");
    }
}
