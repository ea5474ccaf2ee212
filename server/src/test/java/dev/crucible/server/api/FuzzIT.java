package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.RewardBodies;
import dev.crucible.server.support.TestServer;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Generated requests against every route: valid bodies with one part replaced by an arbitrary JSON value (strings
 * with U+0000, lone surrogates, path tricks; huge, negative and fractional numbers; deep nesting), removed or joined
 * by an unknown member, whole bodies that are not JSON, and arbitrary path segments and query values; the Tinker
 * routes under {@code /api/v1} among them. None may be
 * answered with a 5xx, and every refusal is in the one envelope with its status. Bounded: 1,000 requests (about 45 s here).
 */
class FuzzIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final JsonMapper JSON = JsonMapper.createDefault();
    private static final String PROJECT = "fuzz/proj";
    private static TestServer server;
    private static String key;
    private static String modelId;
    private static String jobId;
    private static String fileId;
    private static String feedbackId;
    private static String runId;
    private static String samplerId;
    private static String rewardModelId;

    @BeforeContainer
    static void start() {
        server = TestServer.start(Map.of("crucible.runner.enabled", false, "crucible.primitives.max-sample-tokens", 8,
                "crucible.primitives.long-poll", "1s"));
        key = server.newKey("fuzz");
        Api api = server.api(key);
        modelId = api.post("/v1/preview/models", RequestBodies.createModel("p", "fuzzed")).text("id");
        jobId = api.post("/v1/preview/training-jobs", RequestBodies.rlJob(modelId)).text("id");
        fileId = api.upload("/v1/files", Map.of("purpose", "fine-tune"), "f.jsonl",
                "{\"messages\":[]}\n".getBytes(StandardCharsets.UTF_8)).text("id");
        feedbackId = api.post("/feedback/create", feedback()).text("id");
        rewardModelId = api.post("/v1/reward-models", RewardBodies.create("fuzzed", 12, 1)).text("id");
        String created = api.post("/api/v1/create_model", Map.of("base_model", TestServer.BASE_MODEL, "lora_config",
                Map.of("rank", 2))).text("request_id");
        runId = api.post("/api/v1/retrieve_future", Map.of("request_id", created)).text("model_id");
        samplerId = api.post("/api/v1/create_sampling_session", Map.of("base_model", TestServer.BASE_MODEL))
                .text("sampling_session_id");
    }

    @AfterContainer
    static void stop() {
        server.close();
    }

    /** JSON's null among generated values (generators do not yield Java's null). */
    private enum JsonNull { NULL }

    /** One request to send: method, path with query, and a body as raw text (null for none). */
    record Probe(String method, String path, String body, String contentType) {
        @Override
        public String toString() {
            String shown = body == null ? "" : body.length() > 400 ? body.substring(0, 400) + "…" : body;
            return method + " " + path + " " + shown;
        }
    }

    @Property(tries = 1000, shrinking = ShrinkingMode.OFF)
    void noRequestIsAnsweredWithA5xx(@ForAll("probes") Probe probe) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url() + probe.path()))
                .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + key)
                .method(probe.method(), probe.body() == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(probe.body(), StandardCharsets.UTF_8));
        if (probe.contentType() != null) {
            request.header("Content-Type", probe.contentType());
        }
        HttpResponse<String> response;
        try {
            response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(probe.toString(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        assertTrue(response.statusCode() < 500, () -> probe + " -> " + response.statusCode() + " " + response.body());
        if (response.statusCode() >= 400) {
            assertEquals(response.statusCode(), ((Number) envelope(probe, response.body()).get("code")).intValue(),
                    probe::toString);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> envelope(Probe probe, String body) {
        try {
            return (Map<String, Object>) ((Map<String, Object>) JSON.readValue(body, Argument.OBJECT_ARGUMENT))
                    .get("error");
        } catch (IOException | ClassCastException e) {
            throw new AssertionError(probe + " -> not the error envelope: " + body, e);
        }
    }

    @Provide
    Arbitrary<Probe> probes() {
        return Arbitraries.oneOf(List.of(
                jsonPosts(), paths("GET", "/v1/models/%s", "/v1/preview/training-jobs/%s",
                        "/v1/preview/training-jobs/%s/events", "/v1/files/%s", "/v1/files/%s/content",
                        "/v1/preview/models/%s/checkpoints", "/v1/reward-models/%s"),
                paths("DELETE", "/v1/files/%s", "/v1/preview/models/%s", "/v1/reward-models/%s"),
                queries(), uploads()));
    }

    // ---- JSON bodies ----

    private static Map<String, Object> feedback() {
        Map<String, Object> body = new HashMap<>();
        body.put("project_id", PROJECT);
        body.put("weave_ref", "weave:///fuzz/proj/call/0192f0a2-0000-7000-8000-000000000001");
        body.put("feedback_type", "custom");
        body.put("payload", Map.of("note", "ok", "score", 1));
        return body;
    }

    /** Valid bodies, one per JSON route, that the generated ones vary. */
    private static List<Map.Entry<String, Map<String, Object>>> validPosts() {
        Map<String, Object> replacement = new HashMap<>(feedback());
        replacement.put("feedback_id", feedbackId);
        Map<String, Object> sft = Map.of("model_id", modelId, "training_data_url", "https://example.com/d.jsonl",
                "config", Map.of("batch_size", 2), "experimental_config", Map.of());
        Map<String, Object> chat = Map.of("model", TestServer.BASE_MODEL, "max_tokens", 2,
                "messages", List.of(Map.of("role", "user", "content", "hi")), "temperature", 0.5, "logprobs", true, "stream", false);
        Map<String, Object> obj = Map.of("obj", Map.of("project_id", PROJECT, "object_id", "spec",
                "val", Map.of("field_schema", Map.of("type", "integer")), "builtin_object_class", "AnnotationSpec"));
        return List.of(
                Map.entry("/v1/chat/completions", chat),
                Map.entry("/v1/preview/models", RequestBodies.createModel("p", "fz")),
                Map.entry("/v1/preview/models/" + modelId + "/log",
                        Map.of("split", "val", "trajectory_groups", RequestBodies.trajectoryGroups(0.0, 1.0))),
                Map.entry("/v1/preview/training-jobs", RequestBodies.rlJob(modelId)),
                Map.entry("/v1/preview/sft-training-jobs", sft),
                Map.entry("/feedback/create", feedback()),
                Map.entry("/feedback/replace", replacement),
                Map.entry("/feedback/query", Map.of("project_id", PROJECT, "limit", 5, "offset", 0,
                        "sort_by", List.of(Map.of("field", "created_at", "direction", "desc")))),
                Map.entry("/feedback/purge", Map.of("project_id", PROJECT, "query", Map.of("$expr", Map.of("$eq",
                        List.of(Map.of("$getField", "id"), Map.of("$literal", UUID.randomUUID().toString())))))),
                Map.entry("/obj/create", obj),
                Map.entry("/obj/read", Map.of("project_id", PROJECT, "object_id", "spec", "digest", "latest")),
                Map.entry("/v1/reward-models", RewardBodies.create("fz", 12, 2)),
                Map.entry("/v1/reward-models/" + rewardModelId + "/score", Map.of("items",
                        List.of(Map.of("prompt", "p", "answer", "a"), Map.of("prompt", "", "answer", "b c")))),
                Map.entry("/api/v1/create_model", Map.of("base_model", TestServer.BASE_MODEL, "model_seq_id", 0,
                        "lora_config", Map.of("rank", 2, "train_unembed", false, "train_mlp", true))),
                Map.entry("/api/v1/forward_backward", Map.of("model_id", runId, "seq_id", 1,
                        "forward_backward_input", Map.of("loss_fn", "cross_entropy", "data", List.of(Map.of(
                                "model_input", Map.of("chunks", List.of(Map.of("tokens", List.of(1, 2, 3),
                                        "type", "encoded_text"))),
                                "loss_fn_inputs", Map.of("target_tokens", Map.of("data", List.of(2, 3, 4),
                                        "dtype", "int64", "shape", List.of(3)),
                                        "weights", Map.of("data", List.of(1.0, 1.0, 0.5), "dtype", "float32"))))))),
                Map.entry("/api/v1/optim_step", Map.of("model_id", runId, "seq_id", 2, "adam_params",
                        Map.of("learning_rate", 1e-3, "beta1", 0.9, "beta2", 0.95, "eps", 1e-12))),
                Map.entry("/api/v1/save_weights_for_sampler", Map.of("model_id", runId, "seq_id", 3,
                        "sampling_session_seq_id", 0)),
                Map.entry("/api/v1/asample", Map.of("sampling_session_id", samplerId, "seq_id", 0, "num_samples", 1,
                        "prompt", Map.of("chunks", List.of(Map.of("tokens", List.of(5, 6), "type", "encoded_text"))),
                        "sampling_params", Map.of("max_tokens", 2, "temperature", 0.7, "stop", List.of("x")),
                        "prompt_logprobs", true, "topk_prompt_logprobs", 2)),
                Map.entry("/api/v1/retrieve_future", Map.of("request_id", UUID.randomUUID().toString())),
                Map.entry("/api/v1/create_session", Map.of("tags", List.of("a"), "sdk_version", "0.24.1")));
    }

    private static Arbitrary<Probe> jsonPosts() {
        Arbitrary<Map.Entry<String, Map<String, Object>>> route = Arbitraries.of(validPosts());
        Arbitrary<String> body = Combinators.combine(route, mutations())
                .as((r, m) -> text(bounded(r.getKey(), m.apply(r.getValue()))));
        Arbitrary<Map.Entry<String, String>> posted = Combinators.combine(route, Arbitraries.oneOf(List.of(
                body, Arbitraries.strings().ofMaxLength(60), jsonValue(3).map(FuzzIT::text))))
                .as((r, b) -> Map.entry(r.getKey(), b));
        // each body is sent to the route it was made from, or (one time in five) to another route
        return Combinators.combine(route, posted, Arbitraries.integers().between(0, 4)).as((other, p, dice) ->
                new Probe("POST", dice == 0 ? other.getKey() : p.getKey(), p.getValue(), "application/json"));
    }

    /** A change to a valid body. */
    private static Arbitrary<Function<Map<String, Object>, Object>> mutations() {
        Arbitrary<Integer> which = Arbitraries.integers().between(0, 1000);
        return Combinators.combine(which, Arbitraries.integers().between(0, 3), jsonValue(3), weirdString())
                .as((pick, kind, value, name) -> valid -> mutate(valid, pick, kind, value, name));
    }

    /**
     * A chat body whose mutation left it without a small {@code max_tokens} gets {@code max_completion_tokens: 4}
     * (which vLLM reads first): the tiny model's context is 32k tokens and it rarely stops by itself, so an unbounded
     * chat would take minutes; what it asks is checked all the same.
     */
    @SuppressWarnings("unchecked")
    private static Object bounded(String route, Object body) {
        if (route.equals("/v1/chat/completions") && body instanceof Map<?, ?> map
                && !(map.get("max_tokens") instanceof Number n && Math.abs(n.doubleValue()) <= 16)) {
            ((Map<String, Object>) map).put("max_completion_tokens", 4);
        }
        return body;
    }

    /** Replaces, removes or adds a member of the body or of one of its objects (chosen by {@code pick}). */
    @SuppressWarnings("unchecked")
    private static Object mutate(Map<String, Object> valid, int pick, int kind, Object value, String name) {
        Map<String, Object> copy = deepCopy(valid);
        List<Map<String, Object>> objects = new ArrayList<>();
        collectObjects(copy, objects);
        Map<String, Object> target = objects.get(pick % objects.size());
        List<String> keys = new ArrayList<>(target.keySet());
        String member = keys.isEmpty() ? name : keys.get(pick % keys.size());
        switch (kind) {
            case 0 -> target.put(member, value);
            case 1 -> target.remove(member);
            case 2 -> target.put(name, value);
            default -> target.put(member, List.of(value, value));
        }
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> deepCopy(Map<String, Object> map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> copy.put(k, copyValue(v)));
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static Object copyValue(Object value) {
        if (value instanceof Map<?, ?> m) {
            return deepCopy((Map<String, Object>) m);
        }
        if (value instanceof List<?> l) {
            List<Object> copy = new ArrayList<>();
            l.forEach(item -> copy.add(copyValue(item)));
            return copy;
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    private static void collectObjects(Object value, List<Map<String, Object>> into) {
        if (value instanceof Map<?, ?> m) {
            into.add((Map<String, Object>) m);
            m.values().forEach(v -> collectObjects(v, into));
        } else if (value instanceof List<?> l) {
            l.forEach(v -> collectObjects(v, into));
        }
    }

    private static Arbitrary<String> weirdString() {
        return Arbitraries.oneOf(List.of(
                Arbitraries.of("", " ", "\u0000", "a\u0000b", "\ud800", "x\udfffy", "\uffff", "../../etc/passwd",
                        "file:///etc/passwd", "http://127.0.0.1/", "%00", "null", "-1", "1e999", "🦙", "\u202e",
                        "model_id", "messages", "role", "token_id:abc", "token_id:99999999999", "$expr", "latest"),
                Arbitraries.strings().all().ofMaxLength(20),
                Arbitraries.strings().withCharRange('a', 'z').ofMinLength(5000).ofMaxLength(20000)));
    }

    private static Arbitrary<Object> jsonValue(int depth) {
        List<Arbitrary<?>> leaves = List.of(
                Arbitraries.just(JsonNull.NULL), Arbitraries.of(true, false), weirdString(),
                Arbitraries.longs(), Arbitraries.integers().between(-3, 3),
                Arbitraries.doubles(), Arbitraries.of(1e308, -1e308, 0.5, -0.0, 4.9e-324, 1e20),
                Arbitraries.of(new java.math.BigInteger("99999999999999999999999999"),
                        new java.math.BigDecimal("1e400"), new java.math.BigDecimal("-1e-400")));
        List<Arbitrary<?>> all = new ArrayList<>(leaves);
        if (depth > 0) {
            all.add(jsonValue(depth - 1).list().ofMaxSize(3));
            all.add(Arbitraries.maps(weirdString(), jsonValue(depth - 1)).ofMaxSize(3));
        }
        return Arbitraries.oneOf(all.stream().map(a -> a.map(v -> (Object) v)).toList());
    }

    /** JSON text for a value, escaping control characters and surrogates so that lone ones arrive as such. */
    private static String text(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        switch (value) {
            case null -> out.append("null");
            case JsonNull n -> out.append("null");
            case Map<?, ?> map -> {
                out.append('{');
                String sep = "";
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    out.append(sep);
                    write(String.valueOf(e.getKey()), out);
                    out.append(':');
                    write(e.getValue(), out);
                    sep = ",";
                }
                out.append('}');
            }
            case List<?> list -> {
                out.append('[');
                for (int i = 0; i < list.size(); i++) {
                    out.append(i == 0 ? "" : ",");
                    write(list.get(i), out);
                }
                out.append(']');
            }
            case String s -> {
                out.append('"');
                for (char c : s.toCharArray()) {
                    if (c == '"' || c == '\\') {
                        out.append('\\').append(c);
                    } else if (c < 0x20 || Character.isSurrogate(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
                out.append('"');
            }
            case Double d when d.isNaN() || d.isInfinite() -> out.append(d.isNaN() ? "1e999" : d > 0 ? "1e999" : "-1e999");
            case java.math.BigDecimal big -> out.append(big.toString());
            default -> out.append(value);
        }
    }

    // ---- paths, queries, uploads ----

    private static Arbitrary<String> segment() {
        return Arbitraries.oneOf(List.of(
                Arbitraries.of(modelId, jobId, fileId, feedbackId, rewardModelId, TestServer.BASE_MODEL,
                        "00000000-0000-0000-0000-000000000000", "file-" + "0".repeat(32), "..", "%2e%2e", "%00",
                        "%2F", "a%2Fb", "%ff", "x".repeat(2000)),
                Arbitraries.strings().all().ofMaxLength(40).map(s -> URLEncoder.encode(s, StandardCharsets.UTF_8))));
    }

    private static Arbitrary<Probe> paths(String method, String... templates) {
        return Combinators.combine(Arbitraries.of(templates), segment())
                .as((template, id) -> new Probe(method, template.formatted(id), null, null));
    }

    private static Arbitrary<Probe> queries() {
        Arbitrary<String> value = Arbitraries.oneOf(List.of(
                Arbitraries.of("", "0", "-1", "1", "100", "101", "99999999999999999999", "asc", "desc", "fine-tune",
                        jobId, fileId, "1.5", "%00"),
                weirdString().map(s -> URLEncoder.encode(s, StandardCharsets.UTF_8))));
        Arbitrary<String> path = Arbitraries.of("/v1/files?purpose=%s&limit=%s&after=%s&order=%s",
                "/v1/preview/models/" + modelId + "/checkpoints?after=%s&limit=%s&order=%s&x=%s",
                "/v1/preview/training-jobs/" + jobId + "/events?after=%s&limit=%s&%s=%s",
                "/v1/reward-models?after=%s&limit=%s&order=%s&x=%s",
                "/v1/models?%s=%s&%s=%s", "/v1/health?%s=%s&%s=%s", "/v1/system-check?%s=%s&%s=%s",
                "/v1/organization/usage/completions?start_time=%s&end_time=%s&bucket_width=%s&page=%s",
                "/v1/organization/usage/completions?start_time=0&models=%s&group_by%%5B%%5D=%s&limit=%s&project_ids=%s",
                "/v1/organization/usage/training?start_time=%s&end_time=%s&bucket_width=%s&page=%s",
                "/v1/organization/usage/training?start_time=0&models=%s&group_by%%5B%%5D=%s&limit=%s&project_ids=%s");
        return Combinators.combine(path, value, value, value, value)
                .as((p, a, b, c, d) -> new Probe("GET", p.formatted(a, b, c, d), null, null));
    }

    private static Arbitrary<Probe> uploads() {
        Arbitrary<String> field = Arbitraries.oneOf(List.of(Arbitraries.of("fine-tune", "batch", ""), weirdString()));
        return Combinators.combine(field, field, Arbitraries.strings().ofMaxLength(200)).as((purpose, filename, content) -> {
            String boundary = "fuzz-boundary";
            String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\n" + purpose
                    + "\r\n--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\""
                    + filename.replace("\"", "").replace("\r", "").replace("\n", "")
                    + "\"\r\nContent-Type: application/octet-stream\r\n\r\n" + content + "\r\n--" + boundary + "--\r\n";
            return new Probe("POST", "/v1/files", body, "multipart/form-data; boundary=" + boundary);
        });
    }
}
