package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.TestServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.DoublePredicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /metrics} read by a real Prometheus server (Debian's {@code prometheus} package; {@code .ci/run}
 * installs it): it scrapes Crucible every half second with an API key as its bearer token (which
 * {@code crucible.metrics.access=key}, the default, asks of every caller), must find no parse error in the text,
 * and its queries see vLLM's meters move by exactly the traffic made. Skipped where no {@code prometheus} binary is installed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PrometheusScrapeIT {

    private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private TestServer server;
    private Process prometheus;
    private URI prometheusUrl;

    @TempDir
    static Path dir;

    @BeforeAll
    void start() throws IOException {
        assumeTrue(Files.isExecutable(PROMETHEUS), "no prometheus binary (apt-get install prometheus)");
        server = TestServer.start(Map.of("crucible.runner.enabled", false));
        String scraperKey = server.newKey("prometheus");
        URI crucible = URI.create(server.url());
        int port = freePort();
        Path config = Files.writeString(dir.resolve("prometheus.yml"), """
                global:
                  scrape_interval: 500ms
                  scrape_timeout: 400ms
                scrape_configs:
                  - job_name: crucible
                    metrics_path: /metrics
                    authorization:
                      type: Bearer
                      credentials: "%s"
                    static_configs:
                      - targets: ["%s:%d"]
                """.formatted(scraperKey, crucible.getHost(), crucible.getPort()));
        prometheus = new ProcessBuilder(PROMETHEUS.toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        prometheusUrl = URI.create("http://127.0.0.1:" + port);
    }

    @AfterAll
    void stop() throws InterruptedException {
        if (prometheus != null) {
            prometheus.destroy();
            prometheus.waitFor();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void prometheusParsesEveryScrapeAndSeesTheTrafficMade() throws Exception {
        String model = "{model_name=\"" + TestServer.BASE_MODEL + "\"}";
        // the target is up and its last scrape parsed (a text-format error shows as lastError)
        JsonNode target = waitFor(() -> activeTarget(), t -> t != null && t.path("health").asText().equals("up"));
        assertEquals("", target.path("lastError").asText(), target.toString());

        double tokensBefore = query("sum(vllm:generation_tokens_total" + model + ") or vector(0)");
        double requestsBefore = query("sum(vllm:e2e_request_latency_seconds_count" + model + ") or vector(0)");
        Api api = server.api(server.newKey("scraped"));
        int completionTokens = 0;
        for (int i = 0; i < 3; i++) {
            Api.Reply chat = api.post("/v1/chat/completions", Map.of("model", TestServer.BASE_MODEL, "max_tokens", 4,
                    "messages", List.of(Map.of("role", "user", "content", "hi " + i))));
            assertEquals(200, chat.status(), chat.toString());
            @SuppressWarnings("unchecked")
            Map<String, Object> usage = (Map<String, Object>) chat.json().get("usage");
            completionTokens += ((Number) usage.get("completion_tokens")).intValue();
        }
        double expectedTokens = tokensBefore + completionTokens;
        double tokens = waitForValue("sum(vllm:generation_tokens_total" + model + ")", v -> v >= expectedTokens);
        assertEquals(expectedTokens, tokens, "generation tokens as Prometheus stored them");
        assertEquals(requestsBefore + 3, waitForValue("sum(vllm:e2e_request_latency_seconds_count" + model + ")",
                v -> v >= requestsBefore + 3));
        // a histogram Prometheus can compute over: vLLM's time-to-first-token buckets
        assertTrue(query("histogram_quantile(0.5, sum by (le) (vllm:time_to_first_token_seconds_bucket" + model
                + "))") > 0);
        assertEquals("", activeTarget().path("lastError").asText());
        // operators' meters beside vLLM's: the database pool, the JVM and the process
        for (String name : List.of("hikaricp_connections_active", "hikaricp_connections_max", "jvm_memory_used_bytes",
                "process_resident_memory_bytes", "crucible_jobs")) {
            assertTrue(query("count(" + name + ")") >= 1, name + " is scraped");
        }
    }

    private JsonNode activeTarget() {
        JsonNode targets = get("/api/v1/targets").path("data").path("activeTargets");
        return targets.isEmpty() ? null : targets.get(0);
    }

    private double query(String promql) {
        JsonNode result = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))
                .path("data").path("result");
        return result.isEmpty() ? Double.NaN : Double.parseDouble(result.get(0).path("value").get(1).asText());
    }

    private double waitForValue(String promql, DoublePredicate done) throws InterruptedException {
        return waitFor(() -> query(promql), v -> v != null && !Double.isNaN(v) && done.test(v));
    }

    private static <T> T waitFor(java.util.function.Supplier<T> read, java.util.function.Predicate<T> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        T value = read.get();
        while (!done.test(value) && System.nanoTime() < deadline) {
            Thread.sleep(200);
            value = read.get();
        }
        assertTrue(done.test(value), "gave up waiting; last value " + value);
        return value;
    }

    /** A JSON answer of Prometheus' HTTP API; null-like empty node while it is still starting. */
    private JsonNode get(String path) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(prometheusUrl.resolve(path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? JSON.readTree(response.body()) : JSON.createObjectNode();
        } catch (IOException e) {
            return JSON.createObjectNode();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
