package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** {@code GET /metrics}: Prometheus text after real traffic, with vLLM's names and Crucible's queue meters. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetricsIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.runner.enabled", false));
    private final String key = server.newKey("mia");
    private final Api api = server.api(key);
    /** One sample line of the text format: name, optional labels, value. */
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})? (\\S+)( \\S+)?$");

    private static HttpResponse<String> scrape(TestServer server, String key) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url() + "/metrics")).GET();
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Every sample of a scrape by its name and labels as written ({@code name{a="b"}}); every line must parse. */
    private static Map<String, Double> samples(String text) {
        Map<String, Double> samples = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                assertTrue(line.isBlank() || line.startsWith("# HELP ") || line.startsWith("# TYPE "), line);
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            assertTrue(m.matches(), "not a sample line: " + line);
            samples.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(4)));
        }
        return samples;
    }

    private static double value(Map<String, Double> samples, String name, String... labels) {
        return samples.entrySet().stream()
                .filter(e -> e.getKey().equals(name) || e.getKey().startsWith(name + "{"))
                .filter(e -> List.of(labels).stream().allMatch(l -> e.getKey().contains(l)))
                .mapToDouble(Map.Entry::getValue).sum();
    }

    /**
     * The chat path is built when the server starts, before it listens, not by its first chat (which used to build the
     * use case and the model's histograms on its way to its first token): a fresh server's first scrape, before any
     * chat, has the served model's first-token and latency histograms, at zero.
     */
    @Test
    void aFreshServerHasTheServedModelsLatencyHistogramsBeforeItsFirstChat() {
        try (TestServer fresh = TestServer.start(Map.of("crucible.runner.enabled", false))) {
            HttpResponse<String> scraped = scrape(fresh, fresh.newKey("ops"));
            assertEquals(200, scraped.statusCode(), scraped.body());
            Map<String, Double> samples = samples(scraped.body());
            String model = "model_name=\"" + TestServer.BASE_MODEL + "\"";
            for (String name : List.of("vllm:time_to_first_token_seconds_count",
                    "vllm:e2e_request_latency_seconds_count")) {
                assertTrue(samples.keySet().stream().anyMatch(k -> k.startsWith(name + "{") && k.contains(model)),
                        name + " in " + samples.keySet());
                assertEquals(0.0, value(samples, name, model), name);
            }
        }
    }

    @Test
    void trainingMetersCountStepsTokensAndTheJobsDurationByOutcome() {
        try (TestServer training = TestServer.start(Map.of())) {
            String trainer = training.newKey("trainer");
            Api owner = training.api(trainer);
            String modelId = owner.post("/v1/preview/models", RequestBodies.createModel("p", "trained")).text("id");
            String job = owner.post("/v1/preview/training-jobs", RequestBodies.rlJob(modelId)).text("id");
            Map<String, Object> done = Await.until(() -> owner.get("/v1/preview/training-jobs/" + job).json(),
                    j -> !List.of("QUEUED", "RUNNING").contains(j.get("status")), Duration.ofSeconds(60));
            assertEquals("COMPLETED", done.get("status"), done.toString());

            Map<String, Double> after = samples(scrape(training, trainer).body());
            String rl = "job_type=\"rl\"";
            assertEquals(1.0, value(after, "crucible_gradient_steps_total", rl), "one trainable row, one step");
            assertTrue(value(after, "crucible_training_tokens_total", rl) > 0, "tokens counted");
            assertTrue(value(after, "crucible_training_tokens_per_second", rl) > 0, "the last step's rate");
            assertEquals(1.0, value(after, "crucible_job_duration_seconds_count", rl, "outcome=\"completed\""));
            assertTrue(value(after, "crucible_job_duration_seconds_bucket", rl, "le=\"86400.0\"") >= 1,
                    "the histogram's buckets reach a day");
            assertTrue(value(after, "process_resident_memory_bytes") > 0, "the process's resident memory");
            Map<?, ?> step = (Map<?, ?>) owner.get("/v1/preview/training-jobs/" + job + "/events").data().stream()
                    .filter(e -> e.get("type").equals("gradient_step")).findFirst().orElseThrow().get("data");
            String op = "operation=\"rl_job\"";
            for (String[] pair : new String[][] {{"crucible_training_sampler_logprob_diff_mean",
                "sampler_logprob_diff_mean"}, {"crucible_training_sampler_logprob_diff_max", "sampler_logprob_diff_max"},
                {"crucible_training_sampler_kl_k3", "sampler_kl_k3"}}) {
                double event = ((Number) step.get(pair[1])).doubleValue();
                assertEquals(event, value(after, pair[0], op), 1e-9 * Math.max(1, event),
                        "the last RL step's " + pair[1] + " as its event says");
            }
        }
    }

    @Test
    void servingMetersMoveWithTrafficAndKeepVllmNames() throws InterruptedException {
        HttpResponse<String> before = scrape(server, key);
        assertEquals(200, before.statusCode(), before.body());
        assertTrue(before.headers().firstValue("content-type").orElse("").startsWith("text/plain"));
        Map<String, Double> first = samples(before.body());
        String model = "model_name=\"" + TestServer.BASE_MODEL + "\"";

        Api.Reply chat = api.post("/v1/chat/completions", Map.of("model", TestServer.BASE_MODEL, "max_tokens", 3,
                "messages", List.of(Map.of("role", "user", "content", "hi"))));
        assertEquals(200, chat.status(), chat.toString());
        assertEquals(404, api.get("/v1/preview/training-jobs/00000000-0000-0000-0000-000000000000").status());
        String modelId = api.post("/v1/preview/models", RequestBodies.createModel("p", "metered")).text("id");
        assertEquals(200, api.post("/v1/preview/training-jobs", RequestBodies.rlJob(modelId)).status());
        Thread.sleep(1100); // job counts are read at most once a second

        Map<String, Double> after = samples(scrape(server, key).body());
        assertEquals(0.0, value(after, "vllm:num_requests_running", model));
        assertEquals(0.0, value(after, "vllm:num_requests_waiting", model));
        assertTrue(value(after, "vllm:generation_tokens_total", model)
                >= value(first, "vllm:generation_tokens_total", model) + 1, "tokens counted");
        assertEquals(value(first, "crucible_requests_admitted_total", model) + 1,
                value(after, "crucible_requests_admitted_total", model));
        assertEquals(128.0, value(after, "crucible_queue_capacity", model));
        assertEquals(value(first, "vllm:time_to_first_token_seconds_count", model) + 1,
                value(after, "vllm:time_to_first_token_seconds_count", model));
        assertTrue(after.containsKey("vllm:time_to_first_token_seconds_bucket{le=\"0.005\"," + model + ",}")
                || after.keySet().stream().anyMatch(k -> k.startsWith("vllm:time_to_first_token_seconds_bucket")
                && k.contains("le=\"0.005\"")), "vLLM's buckets");
        assertEquals(value(first, "vllm:e2e_request_latency_seconds_count", model) + 1,
                value(after, "vllm:e2e_request_latency_seconds_count", model));
        assertTrue(value(after, "vllm:prompt_tokens_total", model) > value(first, "vllm:prompt_tokens_total", model));
        assertEquals(value(first, "vllm:request_success_total", model) + 1,
                value(after, "vllm:request_success_total", model), "one more request finished, for some reason");
        assertTrue(value(after, "crucible_queue_wait_seconds_total", model)
                > value(first, "crucible_queue_wait_seconds_total", model), "the admitted request's wait is summed");
        assertTrue(after.containsKey("crucible_requests_refused_total{" + model + ",reason=\"queue_full\"}"),
                after.keySet().toString());
        assertTrue(value(after, "http_server_requests_seconds_count", "uri=\"/v1/chat/completions\"",
                "status=\"200\"") >= 1, "requests by route and status");
        assertTrue(value(after, "http_server_requests_seconds_count", "status=\"404\"") >= 1);
        assertTrue(value(after, "jvm_memory_used_bytes") > 0, "JVM memory");
        assertEquals(value(first, "crucible_jobs", "state=\"queued\"") + 1, value(after, "crucible_jobs",
                "state=\"queued\""), "the runner is off here, so the job stays queued");
        assertTrue(value(after, "process_cpu_usage") >= 0);
    }

    /**
     * The scrape comes from loopback, as every request does behind a reverse proxy on the same machine: by default
     * that is no reason to answer without a key.
     */
    @Test
    void byDefaultAKeyIsNeededEvenFromThisMachine() {
        HttpResponse<String> refused = scrape(server, null);
        assertEquals(401, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("crucible.metrics.access"), refused.body());
        assertTrue(!refused.body().contains("vllm:"), "no meter leaks into the refusal");
        assertEquals(401, scrape(server, "not-a-key").statusCode());
        assertEquals(200, scrape(server, key).statusCode());
    }

    @Test
    void withAccessOpenNoKeyIsNeeded() {
        try (TestServer open = TestServer.start(server.databaseUrl(), server.dataDir(),
                Map.of("crucible.runner.enabled", false, "crucible.metrics.access", "open"))) {
            HttpResponse<String> scraped = scrape(open, null);
            assertEquals(200, scraped.statusCode(), scraped.body());
            assertTrue(scraped.body().contains("jvm_memory_used_bytes"));
        }
    }
}
