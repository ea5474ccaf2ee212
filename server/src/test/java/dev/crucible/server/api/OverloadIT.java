package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.runtime.generation.GeneratorSnapshot;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.ForwardGate;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Overload: a bounded waiting queue per model and bounded requests per key and per entity, refused with 429 and
 * {@code Retry-After}; a client that goes away stops its generation. The scripted model's forward passes are held by
 * a gate, so the model is busy exactly as long as a test wants.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OverloadIT {

    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private final ExecutorService clients = Executors.newCachedThreadPool();
    private TestServer server;
    private ForwardGate.Gate gate;

    @BeforeAll
    void start() {
        server = TestServer.start(Map.of("test.scripted-model", "true",
                "crucible.inference.max-waiting-requests", 2,
                "crucible.inference.max-requests-per-key", 2,
                "crucible.inference.max-requests-per-entity", 3));
        gate = server.bean(ForwardGate.class).forwards();
    }

    @AfterEach
    void reopen() {
        gate.open();
        Await.until(this::snapshot, s -> s.running() == 0 && s.waiting() == 0, PATIENCE);
    }

    @AfterAll
    void stop() {
        clients.shutdownNow();
        server.close();
    }

    private GeneratorSnapshot snapshot() {
        return server.bean(ServedModels.class).find(TestServer.BASE_MODEL).orElseThrow().generator().snapshot();
    }

    private static Map<String, Object> chat(String reply) {
        Map<String, Object> body = new HashMap<>();
        body.put("model", TestServer.BASE_MODEL);
        body.put("messages", List.of(Map.of("role", "user", "content", "[[reply]]" + reply + "[[/reply]]")));
        body.put("max_tokens", 16);
        return body;
    }

    private CompletableFuture<Api.Reply> send(Api api, Map<String, Object> body) {
        return CompletableFuture.supplyAsync(() -> api.post("/v1/chat/completions", body), clients);
    }

    private static void assertOverloaded(Api.Reply reply) {
        assertEquals(429, reply.status(), String.valueOf(reply.body()));
        assertEquals("rate_limit_error", reply.error().get("type"));
        assertEquals(429, reply.error().get("code"));
        long retryAfter = Long.parseLong(reply.headers().get("retry-after").getFirst());
        assertTrue(retryAfter >= 1 && retryAfter <= 60, "Retry-After " + retryAfter);
    }

    @Test
    void aFullWaitingQueueAnswers429WithRetryAfterAndEveryAdmittedRequestIsAnswered() {
        // one key each, so only the queue's bound applies
        List<Api> apis = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            apis.add(server.api(server.newKey("queue-" + i + "-" + System.nanoTime())));
        }
        long refusedBefore = snapshot().refused();
        gate.close();
        List<CompletableFuture<Api.Reply>> admitted = new ArrayList<>();
        admitted.add(send(apis.get(0), chat("first")));
        Await.until(this::snapshot, s -> s.running() == 1, PATIENCE);
        admitted.add(send(apis.get(1), chat("second")));
        admitted.add(send(apis.get(2), chat("third")));
        Await.until(this::snapshot, s -> s.waiting() == 2, PATIENCE);

        Api.Reply refused = apis.get(3).post("/v1/chat/completions", chat("one too many"));

        assertOverloaded(refused);
        assertTrue(refused.error().get("message").toString().contains("2 requests are already waiting"));
        assertEquals(refusedBefore + 1, snapshot().refused());
        gate.open();
        List<String> answers = admitted.stream().map(CompletableFuture::join).map(reply -> {
            assertEquals(200, reply.status(), String.valueOf(reply.body()));
            return OverloadIT.content(reply);
        }).toList();
        assertEquals(List.of("first", "second", "third"), answers);
    }

    @Test
    void aKeyAtItsBoundGets429WhileAnotherKeyIsServed() {
        String entity = "flood-" + System.nanoTime();
        Api flood = server.api(server.newKey(entity));
        Api other = server.api(server.newKey("calm-" + System.nanoTime()));
        gate.close();
        List<CompletableFuture<Api.Reply>> admitted = new ArrayList<>();
        admitted.add(send(flood, chat("f1")));
        Await.until(this::snapshot, s -> s.running() == 1, PATIENCE);
        admitted.add(send(flood, chat("f2")));
        Await.until(this::snapshot, s -> s.waiting() == 1, PATIENCE);

        assertOverloaded(flood.post("/v1/chat/completions", chat("f3")));
        CompletableFuture<Api.Reply> served = send(other, chat("calm"));
        Await.until(this::snapshot, s -> s.waiting() == 2, PATIENCE);
        assertEquals(2, snapshot().waiting(), "the other key's request was queued, not refused");
        gate.open();
        assertEquals(200, served.join().status());
        assertEquals("calm", content(served.join()));
        for (CompletableFuture<Api.Reply> reply : admitted) {
            assertEquals(200, reply.join().status());
        }
        assertEquals(200, flood.post("/v1/chat/completions", chat("after")).status(), "the places were given back");
    }

    @Test
    void anEntityAtItsBoundGets429OnEveryKey() {
        String entity = "tenant-" + System.nanoTime();
        Api first = server.api(server.newKey(entity));
        Api second = server.api(server.newKey(entity));
        gate.close();
        List<CompletableFuture<Api.Reply>> admitted = new ArrayList<>();
        admitted.add(send(first, chat("a")));
        Await.until(this::snapshot, s -> s.running() == 1, PATIENCE);
        admitted.add(send(first, chat("b")));
        admitted.add(send(second, chat("c")));
        Await.until(this::snapshot, s -> s.waiting() == 2, PATIENCE);

        Api.Reply refused = second.post("/v1/chat/completions", chat("d"));

        assertOverloaded(refused);
        assertTrue(refused.error().get("message").toString().contains("already has 3"), refused.error().toString());
        gate.open();
        for (CompletableFuture<Api.Reply> reply : admitted) {
            assertEquals(200, reply.join().status());
        }
    }

    @Test
    void aNonStreamingRequestWhoseClientGoesAwayStopsGenerating() throws Exception {
        // the server heard the client go while the model was still held at its first step
        long generated = sendAndGoAway(server.newKey("gone-" + System.nanoTime()), false);
        assertTrue(generated < 100, "generation stopped early, after " + generated + " of 100 tokens");
    }

    @Test
    void aStreamingRequestWhoseClientGoesAwayUnreadStopsGeneratingAndGivesBackItsPlaces() throws Exception {
        String key = server.newKey("gone-stream-" + System.nanoTime());
        // no event was written yet (the model is held at its first step): the closed connection alone stops it
        sendAndGoAway(key, true);

        // the stream gave its place back: the key has both of its places again
        Api api = server.api(key);
        gate.close();
        List<CompletableFuture<Api.Reply>> admitted = List.of(send(api, chat("a")), send(api, chat("b")));
        Await.until(this::snapshot, s -> s.running() + s.waiting() == 2, PATIENCE);
        gate.open();
        for (CompletableFuture<Api.Reply> reply : admitted) {
            assertEquals(200, reply.join().status());
        }
    }

    /**
     * Sends a 100-token chat on a raw connection while the model is held at its first step, closes the connection
     * once the request runs, then lets the model go: the request must be cancelled and aborted. Returns the tokens
     * generated meanwhile.
     */
    private long sendAndGoAway(String key, boolean stream) throws Exception {
        GeneratorSnapshot before = snapshot();
        gate.close();
        String body = "{\"model\":\"" + TestServer.BASE_MODEL + "\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"go on\"}],\"max_tokens\":100,\"ignore_eos\":true,\"stream\":" + stream + "}";
        URI url = URI.create(server.url());
        try (Socket socket = new Socket(url.getHost(), url.getPort())) {
            socket.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: " + url.getHost()
                    + "\r\nAuthorization: Bearer " + key + "\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body)
                    .getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            Await.until(this::snapshot, s -> s.running() == 1, PATIENCE);
        }
        Await.until(this::snapshot, s -> s.cancelRequested() == before.cancelRequested() + 1, PATIENCE);
        gate.open();
        GeneratorSnapshot after = Await.until(this::snapshot, s -> s.running() == 0, PATIENCE);
        assertEquals(before.aborted() + 1, after.aborted());
        return after.generatedTokens() - before.generatedTokens();
    }

    @SuppressWarnings("unchecked")
    static String content(Api.Reply reply) {
        var choice = ((List<Map<String, Object>>) reply.json().get("choices")).getFirst();
        return (String) ((Map<String, Object>) choice.get("message")).get("content");
    }
}
