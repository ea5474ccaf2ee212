package dev.crucible.server.tinker;

import static dev.crucible.server.tinker.TinkerClient.datum;
import static dev.crucible.server.tinker.TinkerClient.forwardBackward;
import static dev.crucible.server.tinker.TinkerClient.optimStep;
import static dev.crucible.server.tinker.TinkerClient.teaching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The Tinker routes over HTTP against a real server on a tiny model, JSON profile: bootstrap, a run trained by
 * forward_backward and optim_step, dedupe of retries, tenancy and bad input.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TinkerTrainingIT {

    private static final int[] TAUGHT = {11, 12, 13, 14, 15, 16, 17, 18};

    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.primitives.max-runs-per-entity", 8));
    private final String key = server.newKey("tina");
    private final TinkerClient tinker = new TinkerClient(server, key);
    private final TinkerClient other = new TinkerClient(server, server.newKey("otto"));

    @Test
    void theBootstrapAnswersAsTheSdkNeeds() {
        Api.Reply config = tinker.post("client/config", Map.of("sdk_version", "0.24.1"));
        assertEquals(200, config.status(), config.toString());
        assertEquals(false, config.json().get("parallel_fwdbwd_chunks"));
        assertEquals(false, config.json().get("pjwt_auth_enabled"));
        assertEquals(300, tinker.post("client/dynamic_config", Map.of("sdk_version", "0.25.0")).json()
                .get("refresh_interval_sec"));
        String session = tinker.post("create_session", Map.of("tags", List.of("a"), "user_metadata", Map.of(),
                "sdk_version", "0.24.1", "type", "create_session")).text("session_id");
        assertEquals("session_heartbeat", tinker.post("session_heartbeat", Map.of("session_id", session,
                "type", "session_heartbeat")).text("type"));
        other.post("session_heartbeat", Map.of("session_id", session)).assertRefused(404, "session_id");
        assertEquals("accepted", tinker.post("telemetry", Map.of("events", List.of(), "session_id", session))
                .text("status"));
        assertEquals("ok", server.api(null).get("/api/v1/healthz").text("status"));
        Api.Reply capabilities = tinker.api().get("/api/v1/get_server_capabilities");
        assertTrue(capabilities.toString().contains(TestServer.BASE_MODEL), capabilities.toString());

        Api.Reply anonymous = server.api(null).post("/api/v1/client/config", Map.of());
        assertEquals(401, anonymous.status(), anonymous.toString());
        assertEquals(401, ((Number) anonymous.error().get("code")).intValue(), "the error envelope");
        assertEquals(200, server.api(key).post("/api/v1/client/config", Map.of()).status(), "Bearer works too");
    }

    @Test
    void aSupervisedLoopLowersTheLossAndEachOutputMatchesItsMetric() {
        String model = tinker.createModel(TestServer.BASE_MODEL, 4);
        Map<String, Object> info = tinker.post("get_info", Map.of("model_id", model, "type", "get_info")).json();
        assertEquals(4, info.get("lora_rank"));
        assertEquals(TestServer.BASE_MODEL, info.get("model_name"));

        List<Double> losses = new ArrayList<>();
        for (int step = 0; step < 6; step++) {
            String fb = tinker.submit("forward_backward", forwardBackward(model, tinker.nextSeq(), "cross_entropy",
                    List.of(teaching(TAUGHT))));
            String opt = tinker.submit("optim_step", optimStep(model, tinker.nextSeq(), 0.05));
            Map<String, Object> result = tinker.await(fb);
            assertTrue(tinker.await(opt).containsKey("metrics"));
            @SuppressWarnings("unchecked")
            Map<String, Object> output = ((List<Map<String, Object>>) result.get("loss_fn_outputs")).getFirst();
            @SuppressWarnings("unchecked")
            Map<String, Object> logprobs = (Map<String, Object>) output.get("logprobs");
            @SuppressWarnings("unchecked")
            List<Number> values = (List<Number>) logprobs.get("data");
            assertEquals(TAUGHT.length - 1, values.size(), "one logprob per position");
            assertEquals("float32", logprobs.get("dtype"));
            double loss = ((Number) ((Map<?, ?>) result.get("metrics")).get("loss:sum")).doubleValue();
            double sum = -values.stream().mapToDouble(Number::doubleValue).sum();
            assertEquals(sum, loss, 1e-3 * Math.max(1, Math.abs(sum)), "loss:sum is the sum of -logprob * weight");
            losses.add(loss);
        }
        assertTrue(losses.getLast() < losses.getFirst() * 0.9, "the loss falls: " + losses);
    }

    @Test
    void anIdenticalRetryGetsTheOriginalRequestAndADifferentBodyIsA400() {
        String model = tinker.createModel(TestServer.BASE_MODEL, 2);
        int seq = tinker.nextSeq();
        Map<String, Object> body = forwardBackward(model, seq, "cross_entropy", List.of(teaching(TAUGHT)));
        String first = tinker.submit("forward_backward", body);
        assertEquals(first, tinker.submit("forward_backward", body));
        tinker.post("forward_backward", forwardBackward(model, seq, "cross_entropy", List.of(teaching(1, 2, 3))))
                .assertRefused(400, "seq_id", "different request");
        Map<String, Object> result = tinker.await(first);
        assertEquals(result, tinker.await(first), "a result is answered again, the same");

        Map<String, Object> create = TinkerClient.createModelBody(TestServer.BASE_MODEL, 2);
        String session = tinker.post("create_session", Map.of()).text("session_id");
        Map<String, Object> sequenced = new java.util.HashMap<>(create);
        sequenced.put("session_id", session);
        sequenced.put("model_seq_id", 0);
        assertEquals(tinker.submit("create_model", sequenced), tinker.submit("create_model", sequenced));
    }

    @Test
    void anotherEntitysRunsAndFuturesAreNotFound() {
        String model = tinker.createModel(TestServer.BASE_MODEL, 2);
        String fb = tinker.submit("forward_backward", forwardBackward(model, tinker.nextSeq(), "cross_entropy",
                List.of(teaching(TAUGHT))));
        other.post("retrieve_future", Map.of("request_id", fb)).assertRefused(404, "request_id");
        other.post("forward_backward", forwardBackward(model, 50, "cross_entropy", List.of(teaching(TAUGHT))))
                .assertRefused(404, "model_id");
        other.post("get_info", Map.of("model_id", model)).assertRefused(404, "model_id");
        other.post("retrieve_future", Map.of("request_id", "not-an-id")).assertRefused(404, "request_id");
        assertTrue(tinker.await(fb).containsKey("metrics"));
    }

    @Test
    void badInputIsA400ThatNamesTheField() {
        String model = tinker.createModel(TestServer.BASE_MODEL, 2);
        int vocab = TinkerClient.vocabSize(server);
        String at = "forward_backward_input.data[0]";
        refused(model, "ppo_or_worse", List.of(teaching(TAUGHT)), "forward_backward_input.loss_fn");
        refused(model, "cross_entropy", List.of(datum(List.of(1, 2, 3), Map.of(
                "target_tokens", Map.of("data", List.of(2, 3), "dtype", "int64"),
                "weights", Map.of("data", List.of(1.0, 1.0, 1.0), "dtype", "float32")))),
                at + ".loss_fn_inputs.target_tokens");
        refused(model, "cross_entropy", List.of(teaching(1, 2, vocab)), at + ".loss_fn_inputs.target_tokens");
        refused(model, "cross_entropy", List.of(teaching(vocab + 5, 2, 3)), at + ".model_input");
        refused(model, "cross_entropy", List.of(datum(List.of(1, 2), Map.of(
                "target_tokens", Map.of("data", List.of(2, 3), "dtype", "int64"),
                "weights", Map.of("data", List.of(1, 1), "dtype", "int64")))), at + ".loss_fn_inputs.weights");
        refused(model, "cross_entropy", List.of(datum(List.of(1, 2), Map.of(
                "target_tokens", Map.of("data", List.of(2, 3), "dtype", "int64", "shape", List.of(1, 2)),
                "weights", Map.of("data", List.of(1, 1), "dtype", "float32")))), at + ".loss_fn_inputs.target_tokens");
        refused(model, "cross_entropy", List.of(datum(List.of(1, 2), Map.of(
                "target_tokens", Map.of("data", List.of(2, 3), "dtype", "int64", "shape", List.of(2),
                        "sparse_crow_indices", List.of(0, 2), "sparse_col_indices", List.of(0, 1)),
                "weights", Map.of("data", List.of(1, 1), "dtype", "float32")))),
                at + ".loss_fn_inputs.target_tokens.sparse_crow_indices");
        refused(model, "cross_entropy", List.of(), "forward_backward_input.data");
        tinker.post("create_model", Map.of("base_model", TestServer.BASE_MODEL, "lora_config", Map.of("rank", 4,
                "train_unembed", false, "train_mlp", false, "train_attn", false)))
                .assertRefused(400, "lora_config.train_attn");
        tinker.post("create_model", Map.of("base_model", "no-such-model")).assertRefused(400, "base_model");
    }

    @Test
    void anUnloadedRunFailsItsLaterOperationsAsTheUsersFault() {
        String model = tinker.createModel(TestServer.BASE_MODEL, 2);
        Map<String, Object> unloaded = tinker.await(tinker.submit("unload_model", Map.of("model_id", model)));
        assertEquals(model, unloaded.get("model_id"));
        Map<String, Object> failed = tinker.await(tinker.submit("forward_backward", forwardBackward(model,
                tinker.nextSeq(), "cross_entropy", List.of(teaching(TAUGHT)))));
        assertEquals("user", failed.get("category"), failed.toString());
        assertNotEquals(null, failed.get("error"));
    }

    @Test
    void liveRunsAreBoundedPerEntityAndAnUnloadFreesAPlace() {
        TinkerClient busy = new TinkerClient(server, server.newKey("busy"));
        List<String> runs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            runs.add(busy.createModel(TestServer.BASE_MODEL, 1));
        }
        busy.post("create_model", TinkerClient.createModelBody(TestServer.BASE_MODEL, 1)).assertRefused(429, null,
                "crucible.primitives.max-runs-per-entity");
        busy.await(busy.submit("unload_model", Map.of("model_id", runs.getFirst())));
        assertTrue(busy.createModel(TestServer.BASE_MODEL, 1) != null);
    }

    private void refused(String model, String loss, List<Map<String, Object>> data, String param) {
        tinker.post("forward_backward", forwardBackward(model, tinker.nextSeq(), loss, data)).assertRefused(400, param);
    }
}
