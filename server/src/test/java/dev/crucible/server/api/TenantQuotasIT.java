package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.tiny.TinyAdapter;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Per-entity budgets on what a tenant keeps: training jobs queued (429 with Retry-After past them) and files stored,
 * by count and by bytes, and checkpoints over all of an entity's models (413). A tenant at its bound is refused, nothing of the refused request is kept, concurrent
 * requests of one tenant cannot pass the bound together, and another tenant is served as before. The runner is off,
 * so queued jobs stay queued.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TenantQuotasIT {

    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.runner.enabled", "false",
            "crucible.jobs.max-queued-per-entity", 2, "crucible.files.max-per-entity", 2,
            "crucible.files.max-bytes-per-entity", 1000, "crucible.adapters.max-per-entity", 2));
    private final ExecutorService clients = Executors.newFixedThreadPool(6);

    @AfterAll
    void stopClients() {
        clients.shutdownNow();
    }

    private Api tenant(String name) {
        return server.api(server.newKey(name + "-" + System.nanoTime()));
    }

    private static Api.Reply upload(Api api, String name, int bytes) {
        return api.upload("/v1/files", Map.of("purpose", "fine-tune"), name,
                "x".repeat(bytes).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anEntityWithItsMostJobsQueuedGets429WhileAnotherEntityQueues() {
        Api full = tenant("queue-full");
        Api other = tenant("queue-other");
        String model = full.post("/v1/preview/models", RequestBodies.createModel("p", "m")).text("id");
        String otherModel = other.post("/v1/preview/models", RequestBodies.createModel("p", "m")).text("id");
        for (int i = 0; i < 2; i++) {
            Api.Reply queued = full.post("/v1/preview/training-jobs", RequestBodies.rlJob(model));
            assertEquals(200, queued.status(), queued.toString());
        }

        Api.Reply refused = full.post("/v1/preview/training-jobs", RequestBodies.rlJob(model));

        assertEquals(429, refused.status(), refused.toString());
        assertEquals("rate_limit_error", refused.error().get("type"));
        assertTrue(refused.error().get("message").toString().contains("crucible.jobs.max-queued-per-entity"),
                refused.toString());
        assertTrue(refused.headers().containsKey("retry-after"), refused.toString());
        assertEquals(2, full.get("/v1/preview/training-jobs").data().size(), "the refused job was not stored");
        Api.Reply served = other.post("/v1/preview/training-jobs", RequestBodies.rlJob(otherModel));
        assertEquals(200, served.status(), "another entity queues: " + served);
    }

    @Test
    void concurrentJobsOfOneEntityCannotPassItsBoundTogether() {
        Api racer = tenant("queue-race");
        String model = racer.post("/v1/preview/models", RequestBodies.createModel("p", "m")).text("id");
        List<Integer> statuses = IntStream.range(0, 6).mapToObj(i -> CompletableFuture.supplyAsync(
                        () -> racer.post("/v1/preview/training-jobs", RequestBodies.rlJob(model)).status(), clients))
                .toList().stream().map(CompletableFuture::join).toList();
        assertEquals(2, statuses.stream().filter(s -> s == 200).count(), statuses.toString());
        assertEquals(4, statuses.stream().filter(s -> s == 429).count(), statuses.toString());
        assertEquals(2, racer.get("/v1/preview/training-jobs").data().size());
    }

    @Test
    void anEntityWithItsMostFilesGets413WhileAnotherEntityUploads() {
        Api full = tenant("files-full");
        Api other = tenant("files-other");
        assertEquals(200, upload(full, "a.jsonl", 10).status());
        assertEquals(200, upload(full, "b.jsonl", 10).status());

        Api.Reply refused = upload(full, "c.jsonl", 10);

        assertEquals(413, refused.status(), refused.toString());
        assertEquals("file", refused.error().get("param"));
        assertTrue(refused.error().get("message").toString().contains("crucible.files.max-per-entity"),
                refused.toString());
        assertEquals(2, full.get("/v1/files").data().size(), "the refused file was not stored");
        assertEquals(200, upload(other, "a.jsonl", 10).status(), "another entity uploads");
    }

    @Test
    void anEntityWhoseFilesWouldPassItsBytesGets413() {
        Api api = tenant("files-bytes");
        assertEquals(200, upload(api, "a.jsonl", 600).status());

        Api.Reply refused = upload(api, "b.jsonl", 401);

        assertEquals(413, refused.status(), refused.toString());
        assertTrue(refused.error().get("message").toString().contains("crucible.files.max-bytes-per-entity"),
                refused.toString());
        assertEquals(200, upload(api, "c.jsonl", 400).status(), "what fits is stored");
    }

    @Test
    void anEntityWithItsMostCheckpointsGets413OnImportWhileAnotherEntityImports() throws IOException {
        Api full = tenant("adapters-full");
        Api other = tenant("adapters-other");
        Path made = Files.createTempDirectory("peft");
        TinyAdapter.writeRandom(ModelFolder.read(server.dataDir().resolve("models").resolve(TestServer.BASE_MODEL))
                .config(), made, 5);
        byte[] archive = AdaptersIT.zip(AdaptersIT.folder(made));
        String first = full.post("/v1/preview/models", RequestBodies.createModel("p", "a")).text("id");
        String second = full.post("/v1/preview/models", RequestBodies.createModel("p", "b")).text("id");
        assertEquals(200, importAdapter(full, first, archive).status());
        assertEquals(200, importAdapter(full, second, archive).status());

        Api.Reply refused = importAdapter(full, first, archive);

        assertEquals(413, refused.status(), refused.toString());
        assertEquals("adapter", refused.error().get("param"));
        assertTrue(refused.error().get("message").toString().contains("crucible.adapters.max-per-entity"),
                refused.toString());
        assertEquals(1, full.get("/v1/preview/models/" + first + "/checkpoints").data().stream()
                .filter(c -> ((Number) c.get("step")).intValue() > 0).count(), "the refused import stored nothing");
        String otherModel = other.post("/v1/preview/models", RequestBodies.createModel("p", "a")).text("id");
        assertEquals(200, importAdapter(other, otherModel, archive).status(), "another entity imports");
    }

    private static Api.Reply importAdapter(Api api, String model, byte[] archive) {
        return api.upload("/v1/preview/models/" + model + "/checkpoints", Map.of(), "adapter", "adapter.zip", archive);
    }

    @Test
    void concurrentUploadsOfOneEntityCannotPassItsBoundTogether() {
        // two keys of one entity, so that the per-key uploads at once (4 by default) do not bound the race first
        String entity = "files-race-" + System.nanoTime();
        List<Api> keys = List.of(server.api(server.newKey(entity)), server.api(server.newKey(entity)));
        List<Integer> statuses = IntStream.range(0, 6).mapToObj(i -> CompletableFuture.supplyAsync(
                        () -> upload(keys.get(i % 2), "f" + i + ".jsonl", 10).status(), clients))
                .toList().stream().map(CompletableFuture::join).toList();
        assertEquals(2, statuses.stream().filter(s -> s == 200).count(), statuses.toString());
        assertEquals(4, statuses.stream().filter(s -> s == 413).count(), statuses.toString());
        assertEquals(2, keys.getFirst().get("/v1/files").data().size());
    }
}
