package dev.crucible.server.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.crucible.adapters.dataset.TrainingDataHosts;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * SFT jobs whose {@code training_data_url} points into the server's own network: each fails before a connection,
 * with a message that names the setting and never an address the host resolved to. Traffic goes only to loopback:
 * every special-purpose literal is first put to the guard's own decision ({@link TrainingDataHosts#refusal}, no
 * connection), and only a URL that decision refuses is handed to the server, so a broken guard fails this test
 * before any job could connect out. A server that allows private hosts still reads a loopback dataset.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DatasetUrlGuardIT {

    private static final byte[] DATASET = ("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}, "
            + "{\"role\": \"assistant\", \"content\": \"hello\"}]}\n").getBytes(StandardCharsets.UTF_8);

    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final Api api = server.api(server.newKey("guarded"));
    private final AtomicInteger served = new AtomicInteger();
    private HttpServer loopback;

    @BeforeAll
    void serveADataset() throws IOException {
        loopback = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        loopback.createContext("/d.jsonl", exchange -> {
            served.incrementAndGet();
            exchange.sendResponseHeaders(200, DATASET.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(DATASET);
            }
        });
        loopback.start();
    }

    @AfterAll
    void stop() {
        loopback.stop(0);
    }

    private Map<String, Object> sftJob(Api caller, String url) {
        String model = caller.post("/v1/preview/models", RequestBodies.createModel("p", "m" + System.nanoTime()))
                .text("id");
        Api.Reply created = caller.post("/v1/preview/sft-training-jobs", Map.of("model_id", model,
                "training_data_url", url, "config", Map.of("batch_size", 1)));
        assertEquals(200, created.status(), created.toString());
        String id = created.text("id");
        return Await.until(() -> caller.get("/v1/preview/training-jobs/" + id).json(),
                j -> !List.of("QUEUED", "RUNNING").contains(j.get("status")), Duration.ofSeconds(60));
    }

    @Test
    void aNameThatResolvesToLoopbackFailsTheJobWithoutSayingWhereItResolvedAndIsNeverRead() throws IOException {
        String url = "http://localhost:" + loopback.getAddress().getPort() + "/d.jsonl";
        Map<String, Object> job = sftJob(api, url);
        assertEquals("FAILED", job.get("status"), job.toString());
        String message = (String) job.get("error_message");
        assertTrue(message.contains("special-purpose address") && message.contains(
                "crucible.training-data.allow-private-hosts"), message);
        for (InetAddress address : InetAddress.getAllByName("localhost")) {
            assertFalse(message.contains(address.getHostAddress()), message);
        }
        assertFalse(message.contains("127.0.0.1") || message.contains("0:0:0:0:0:0:0:1"), message);
        assertEquals(0, served.get(), "the guard refused before connecting");
    }

    @Test
    void specialPurposeAndAmbiguousLiteralsFailTheJobBeforeAnyConnection() {
        TrainingDataHosts guard = new TrainingDataHosts(false);
        for (String url : List.of("http://192.0.0.192/x", "http://[::ffff:127.0.0.1]/x", "http://0177.0.0.1/x",
                "http://[::127.0.0.1]/x", "http://[64:ff9b::a9fe:a9fe]/latest/meta-data", "http://198.18.0.1/x",
                "http://[2002:c000:c0::1]/x", "http://2130706433/x")) {
            // the guard's decision first: should it let the URL through, stop here, before the server could connect
            Optional<String> decision = guard.refusal(URI.create(url));
            assertTrue(decision.isPresent(), "the guard lets " + url + " through");
            Map<String, Object> job = sftJob(api, url);
            assertEquals("FAILED", job.get("status"), url + " -> " + job);
            String message = (String) job.get("error_message");
            assertTrue(message.contains(decision.get()), url + " -> " + message);
            assertTrue(message.contains("special-purpose address") || message.contains("four decimal numbers"),
                    message);
            // the caller's own URL and host are quoted; nothing else may name an address
            String besidesTheUrl = message.replace(url, "").replace(URI.create(url).getHost(), "");
            for (String resolved : List.of("127.0.0.1", "177.0.0.1", "169.254.169.254", "192.0.0.192", "0:0:0:0")) {
                assertFalse(besidesTheUrl.contains(resolved), message);
            }
        }
    }

    @Test
    void aServerThatAllowsPrivateHostsReadsALoopbackDataset() {
        try (TestServer open = TestServer.start(Map.of("crucible.training-data.allow-private-hosts", true))) {
            int before = served.get();
            Map<String, Object> job = sftJob(open.api(open.newKey("open")),
                    "http://127.0.0.1:" + loopback.getAddress().getPort() + "/d.jsonl");
            assertEquals("COMPLETED", job.get("status"), job.toString());
            assertEquals(before + 1, served.get());
        }
    }
}
