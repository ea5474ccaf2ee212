package dev.crucible.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.Cluster;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import dev.crucible.testsupport.database.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code crucible serve --role api} and {@code --role worker} as separate processes on one PostgreSQL and one data
 * directory ({@link Cluster}): the api accepts a job and never trains it, a worker trains it and its checkpoint answers
 * chat on the api within 2 s of the job's end; SIGTERM on a worker mid-job hands the job back to the queue (with its
 * {@code training_requeued} event) and the next worker finishes it; after kill -9 mid-job the job is failed as
 * orphaned once its heartbeat is stale (docs/deploy.md), and a new worker goes on with the queue. No accepted job is
 * lost.
 */
class ClusterIT {

    private static final Duration VISIBLE_WITHIN = Duration.ofSeconds(2);

    @Test
    void apiAndWorkersShareTheQueueAndWorkersComeAndGo() throws Exception {
        try (Cluster cluster = new Cluster(TestDatabase.freshDatabase(), TestServer.newDataDir())) {
            Cluster.Member api = cluster.start("api", Map.of());
            Api client = api.api();
            assertEquals(503, client.post("/api/v1/create_model", Map.of()).status(),
                    "the primitives run only on a role all process");

            Cluster.Member stubborn = cluster.start("worker", Map.of("test.trainer", "blocking"));
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
            long visibleMs = firstAnswer(client, "crucible:///" + Cluster.ENTITY + "/p/trained", 200, seen);
            Instant ended = Instant.parse((String) done.get("training_end"));
            System.out.println("cluster: checkpoint answered chat on the api " + (Duration.between(ended, seen)
                    .toMillis() + visibleMs) + " ms after the job's end (" + visibleMs + " ms after the test saw it)");

            // kill -9 mid-job: once its heartbeat is stale, the next worker fails the job as orphaned.
            worker.terminate();
            assertEquals(143, worker.awaitExit(Duration.ofSeconds(60)), worker.logTail());
            Cluster.Member doomed = cluster.start("worker", Map.of("test.trainer", "blocking"));
            String second = client.post("/v1/preview/training-jobs", RequestBodies.rlJob(model)).text("id");
            awaitStatus(client, second, "RUNNING");
            doomed.kill();
            doomed.awaitExit(Duration.ofSeconds(30));
            cluster.start("worker", Map.of("test.trainer", "instant"));
            Map<String, Object> orphaned = awaitStatus(client, second, "FAILED");
            assertTrue(String.valueOf(orphaned.get("error_message")).startsWith("training was interrupted"),
                    orphaned.toString());
            String third = client.post("/v1/preview/training-jobs", RequestBodies.rlJob(model)).text("id");
            awaitStatus(client, third, "COMPLETED");

            // Nothing accepted was lost: every job is listed with its end, and the checkpoints are contiguous.
            Set<String> listed = Set.copyOf(client.get("/v1/preview/training-jobs?limit=100").data().stream()
                    .map(j -> (String) j.get("id")).toList());
            assertTrue(listed.containsAll(List.of(first, second, third)), listed.toString());
            assertEquals(List.of(0, 1, 2), client.get("/v1/preview/models/" + model + "/checkpoints?limit=100").data()
                    .stream().map(c -> ((Number) c.get("step")).intValue()).toList());

            // A deleted model stops being served at once.
            assertEquals(200, client.delete("/v1/preview/models/" + model, null).status());
            firstAnswer(client, "crucible:///" + Cluster.ENTITY + "/p/trained", 404, Instant.now());
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
