package dev.crucible.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.s3.S3ProxyServer;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.Cluster;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import dev.crucible.testsupport.database.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The deployment of docs/deploy.md on one machine ({@link Cluster}): two {@code crucible serve --role api} processes
 * and workers ({@code --role worker}), each with a data directory of its own, on one PostgreSQL and one S3-compatible
 * store (S3Proxy, {@code --blob-store s3://…}). The first api accepts a job and never trains it; a worker trains it and
 * its checkpoint answers chat on the second api within 2 s of the job's end, fetched from the bucket; a file uploaded
 * through the second api trains an SFT job. SIGTERM on a worker mid-job hands the job back to the queue (with its
 * {@code training_requeued} event) and the next worker finishes it; after kill -9 mid-job the job is failed as
 * orphaned once its heartbeat is stale, and a new worker goes on with the queue. No accepted job, checkpoint or
 * object is lost.
 */
class ClusterIT {

    private static final Duration VISIBLE_WITHIN = Duration.ofSeconds(2);
    private static final String BUCKET = "crucible-cluster";
    private static final String LINE = "{\"messages\": [{\"role\": \"user\", \"content\": \"2+2?\"}, "
            + "{\"role\": \"assistant\", \"content\": \"4\"}]}\n";

    @RegisterExtension
    static final S3ProxyServer S3 = new S3ProxyServer(BUCKET);

    @Test
    void apiAndWorkersShareTheQueueAndWorkersComeAndGo() throws Exception {
        try (Cluster cluster = new Cluster(TestDatabase.freshDatabase(), TestServer.newDataDir()).withOwnDataDirs()
                .withArgs("--blob-store", "s3://" + BUCKET + "/cluster")
                .withEnv("CRUCIBLE_S3_ENDPOINT", S3.endpoint().toString()).withEnv("CRUCIBLE_S3_PATH_STYLE", "true")
                .withEnv("AWS_REGION", "us-east-1").withEnv("AWS_ACCESS_KEY_ID", S3ProxyServer.ACCESS_KEY)
                .withEnv("AWS_SECRET_ACCESS_KEY", S3ProxyServer.SECRET_KEY)) {
            // The three first children start at once: each is a JVM and a Micronaut context, seconds apiece, and
            // none needs another to start (the queue is empty until the test posts a job).
            Cluster.Member api = cluster.launch("api", Map.of());
            Cluster.Member second = cluster.launch("api", Map.of());
            Cluster.Member stubborn = cluster.launch("worker", Map.of("test.trainer", "blocking"));
            Cluster.awaitServing(api, second, stubborn);
            Api client = api.api();
            Api other = second.api();

            Api.Reply absent = stubborn.api().get("/v1/models");
            assertEquals(404, absent.status(), absent.toString());
            assertTrue(String.valueOf(absent.error().get("message")).contains("role worker"), absent.toString());
            assertEquals(200, stubborn.api().download("/metrics").status(), "a worker is scraped like any process");

            String model = client.post("/v1/preview/models", model("trained")).text("id");
            String first = client.post("/v1/preview/training-jobs", RequestBodies.rlJob(model)).text("id");
            awaitStatus(client, first, "RUNNING");

            // SIGTERM mid-job: the job goes back to the queue, not to FAILED.
            stubborn.terminate();
            assertEquals(143, stubborn.awaitExit(Duration.ofSeconds(60)), stubborn.logTail());
            assertEquals("QUEUED", job(client, first).get("status"));
            assertEquals(List.of("training_started", "training_requeued"), eventTypes(client, first));

            // The next worker trains it for real; its checkpoint answers chat on the api at once.
            Cluster.Member worker = cluster.start("worker", Map.of());
            Map<String, Object> done = awaitStatus(client, first, "COMPLETED");
            Instant seen = Instant.now();
            List<String> types = eventTypes(client, first);
            assertEquals(List.of("training_started", "training_requeued", "training_started"), types.subList(0, 3));
            assertEquals("training_ended", types.getLast());
            long visibleMs = firstAnswer(other, "crucible:///" + Cluster.ENTITY + "/p/trained", 200, seen);
            Instant ended = Instant.parse((String) done.get("training_end"));
            System.out.println("cluster: checkpoint answered chat on the other api " + (Duration.between(ended, seen)
                    .toMillis() + visibleMs) + " ms after the job's end (" + visibleMs + " ms after the test saw it)");

            // A file uploaded through the second api trains an SFT job on the worker, which reads it from the bucket.
            Api.Reply file = other.upload("/v1/files", Map.of("purpose", "fine-tune"), "train.jsonl",
                    LINE.getBytes(StandardCharsets.UTF_8));
            assertEquals(200, file.status(), file.toString());
            Api.Reply sft = client.post("/v1/preview/sft-training-jobs", Map.of("model_id", model,
                    "training_data_url", file.text("id")));
            assertEquals(200, sft.status(), sft.toString());
            awaitStatus(client, sft.text("id"), "COMPLETED");

            // kill -9 mid-job: once its heartbeat is stale, the next worker fails the job as orphaned. The doomed
            // worker starts while the trained one stops (the queue is empty), and the next one while the doomed one
            // holds the job: it can claim nothing before the job's heartbeat is stale.
            Cluster.Member doomed = cluster.launch("worker", Map.of("test.trainer", "blocking"));
            worker.terminate();
            assertEquals(143, worker.awaitExit(Duration.ofSeconds(60)), worker.logTail());
            Cluster.awaitServing(doomed);
            String interrupted = client.post("/v1/preview/training-jobs", RequestBodies.rlJob(model)).text("id");
            awaitStatus(client, interrupted, "RUNNING");
            Cluster.Member next = cluster.launch("worker", Map.of("test.trainer", "instant"));
            doomed.kill();
            doomed.awaitExit(Duration.ofSeconds(30));
            Cluster.awaitServing(next);
            Map<String, Object> orphaned = awaitStatus(client, interrupted, "FAILED");
            assertTrue(String.valueOf(orphaned.get("error_message")).startsWith("training was interrupted"),
                    orphaned.toString());
            String third = client.post("/v1/preview/training-jobs", RequestBodies.rlJob(model)).text("id");
            awaitStatus(client, third, "COMPLETED");

            // Nothing accepted was lost: every job is listed with its end, and the checkpoints are contiguous.
            Set<String> listed = Set.copyOf(client.get("/v1/preview/training-jobs?limit=100").data().stream()
                    .map(j -> (String) j.get("id")).toList());
            assertTrue(listed.containsAll(List.of(first, sft.text("id"), interrupted, third)), listed.toString());
            assertEquals(List.of(0, 1, 2, 3), client.get("/v1/preview/models/" + model + "/checkpoints?limit=100").data()
                    .stream().map(c -> ((Number) c.get("step")).intValue()).toList());
            for (int step = 1; step <= 2; step++) {
                Api.Reply answer = other.post("/v1/chat/completions", RequestBodies.chat("Hello", "model",
                        "crucible:///" + Cluster.ENTITY + "/p/trained:step" + step, "max_tokens", 4));
                assertEquals(200, answer.status(), "trained checkpoint " + step + " is served from the bucket: " + answer);
            }

            // A deleted model stops being served at once.
            assertEquals(200, client.delete("/v1/preview/models/" + model, null).status());
            firstAnswer(other, "crucible:///" + Cluster.ENTITY + "/p/trained", 404, Instant.now());
        }
    }

    /** Chats with {@code model} until the answer is {@code status}; fails unless it was within 2 s of {@code from}. */
    private static long firstAnswer(Api client, String model, int status, Instant from) {
        long sentMs;
        int got;
        do {
            sentMs = Duration.between(from, Instant.now()).toMillis();
            got = client.post("/v1/chat/completions", RequestBodies.chat("Hello", "model", model, "max_tokens", 4))
                    .status();
        } while (got != status && sentMs < VISIBLE_WITHIN.toMillis());
        assertEquals(status, got, model + " answered " + got + " still " + sentMs + " ms on");
        return sentMs;
    }

    private static Map<String, Object> awaitStatus(Api client, String job, String status) {
        Map<String, Object> seen = Await.until(() -> job(client, job), j -> status.equals(j.get("status"))
                || List.of("COMPLETED", "FAILED", "CANCELLED").contains(j.get("status")), Duration.ofMinutes(5));
        assertEquals(status, seen.get("status"), seen.toString());
        return seen;
    }

    private static Map<String, Object> job(Api client, String job) {
        return client.get("/v1/preview/training-jobs/" + job).json();
    }

    private static List<String> eventTypes(Api client, String job) {
        return client.get("/v1/preview/training-jobs/" + job + "/events?limit=100").data().stream()
                .map(e -> (String) e.get("type")).toList();
    }

    private static Map<String, Object> model(String name) {
        Map<String, Object> body = new HashMap<>(RequestBodies.createModel("p", name));
        body.put("base_model", "crucible-tiny");
        return body;
    }
}
