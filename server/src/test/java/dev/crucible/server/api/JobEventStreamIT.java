package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** A job's events as server-sent events: all of them, in order, ending with the job; resumable; tenant-scoped. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobEventStreamIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private final TestServer server = TestServer.start(Map.of());
    private final String key = server.newKey("streamer");
    private final Api api = server.api(key);

    @AfterAll
    void stop() {
        server.close();
    }

    /** The status and the SSE lines of a stream read to its end. */
    private record Streamed(int status, List<String> ids, List<String> data) {
    }

    private Streamed read(String jobId, String bearer, String lastEventId) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url()
                + "/v1/preview/training-jobs/" + jobId + "/events/stream")).timeout(Duration.ofMinutes(2))
                .header("Authorization", "Bearer " + bearer).header("Accept", "text/event-stream");
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<Stream<String>> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofLines());
        List<String> ids = new ArrayList<>();
        List<String> data = new ArrayList<>();
        try (Stream<String> lines = response.body()) {
            lines.forEach(line -> {
                if (line.startsWith("id:")) {
                    ids.add(line.substring(3).strip());
                } else if (line.startsWith("data:")) {
                    data.add(line.substring(5).strip());
                }
            });
        }
        return new Streamed(response.statusCode(), ids, data);
    }

    @Test
    void aJobsEventsStreamInOrderAndTheStreamEndsWithTheJob() throws Exception {
        String modelId = api.post("/v1/preview/models", RequestBodies.createModel("p", "streamed")).text("id");
        String job = api.post("/v1/preview/training-jobs", RequestBodies.rlJob(modelId)).text("id");

        Streamed all = read(job, key, null);
        assertEquals(200, all.status());
        List<Map<String, Object>> listed = api.get("/v1/preview/training-jobs/" + job + "/events?limit=100").data();
        assertEquals(listed.stream().map(e -> e.get("id")).toList(), all.ids(), "every event, once, in order");
        assertTrue(all.data().getFirst().contains("\"type\":\"training_started\""), all.data().getFirst());
        assertTrue(all.data().getLast().contains("\"type\":\"training_ended\""), all.data().getLast());
        assertEquals("COMPLETED", api.get("/v1/preview/training-jobs/" + job).text("status"));

        Streamed resumed = read(job, key, all.ids().getFirst());
        assertEquals(all.ids().subList(1, all.ids().size()), resumed.ids(), "Last-Event-ID resumes after that event");
    }

    @Test
    void anotherTenantsJobAndAForeignCursorAreRefusedBeforeTheStream() throws Exception {
        String modelId = api.post("/v1/preview/models", RequestBodies.createModel("p", "private")).text("id");
        String job = api.post("/v1/preview/training-jobs", RequestBodies.rlJob(modelId)).text("id");
        assertEquals(404, read(job, server.newKey("intruder"), null).status());
        assertEquals(400, read(job, key, "00000000-0000-0000-0000-000000000001").status());
        assertEquals(400, read("not-a-job", key, null).status());
    }
}
