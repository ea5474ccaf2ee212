package dev.crucible.server.tinker;

import static dev.crucible.server.tinker.TinkerClient.forwardBackward;
import static dev.crucible.server.tinker.TinkerClient.optimStep;
import static dev.crucible.server.tinker.TinkerClient.sample;
import static dev.crucible.server.tinker.TinkerClient.teaching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The cookbook's supervised loop replayed over HTTP (reference §9, JSON profile) on a tiny model: the loss falls, the
 * named sampler weights continue the taught tokens greedily and answer /v1/chat/completions by the run's name; an
 * ephemeral sampler's prompt logprobs agree with the trainer's (FP32: within {@value TinkerClient#AGREEMENT} nats per
 * token); a saved state loaded into a new run scores as the old one. Samples count in the usage API under the run's
 * model.
 */
class TinkerReplayIT {

    private static final int[] TAUGHT = {21, 22, 23, 24, 25, 26, 27, 28, 29, 30};

    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final String key = server.newKey("sally");
    private final TinkerClient tinker = new TinkerClient(server, key);

    @Test
    void theSupervisedLoopTeachesTokensThatTheSamplerContinues() {
        tinker.post("client/config", Map.of("sdk_version", "0.24.1"));
        String session = tinker.createSession();
        Map<String, Object> create = new LinkedHashMap<>(TinkerClient.createModelBody(TestServer.BASE_MODEL, 8));
        create.put("session_id", session);
        create.put("model_seq_id", 0);
        String model = (String) tinker.await(tinker.submit("create_model", create)).get("model_id");

        List<Double> losses = tinker.teach(model, TAUGHT);
        assertTrue(losses.getLast() < losses.getFirst() / 4, "the loss falls: " + losses);

        String path = tinker.saveForSampler(model, "final");
        assertEquals("tinker://" + model + "/sampler_weights/final", path);
        String sampler = tinker.post("create_sampling_session", Map.of("session_id", session,
                "sampling_session_seq_id", 0, "model_path", path)).text("sampling_session_id");
        assertEquals(TestServer.BASE_MODEL, tinker.api().get("/api/v1/samplers/" + sampler).text("base_model"));

        Map<String, Object> sampled = tinker.await(tinker.submit("asample", sample(sampler, 0, List.of(21, 22, 23),
                Map.of("max_tokens", 7, "temperature", 0.0), false)));
        Map<?, ?> sequence = (Map<?, ?>) ((List<?>) sampled.get("sequences")).getFirst();
        assertEquals(List.of(24, 25, 26, 27, 28, 29, 30), sequence.get("tokens"), sampled + " after " + losses);
        assertEquals(7, ((List<?>) sequence.get("logprobs")).size(), "a logprob per sampled token");
        assertEquals("length", sequence.get("stop_reason"));

        String address = "crucible:///sally/tinker/run-" + model;
        Api.Reply chat = server.api(key).post("/v1/chat/completions", RequestBodies.chat("Hi", "model", address,
                "max_tokens", 2));
        assertEquals(200, chat.status(), chat.toString());

        String usage = "/v1/organization/usage/completions?group_by=model&start_time="
                + (java.time.Instant.now().getEpochSecond() - 3600);
        String counted = Await.until(() -> server.api(key).get(usage).toString(),
                text -> text.contains(address), Duration.ofSeconds(30));
        assertTrue(counted.contains("output_tokens"), "samples count in the usage API by the run's model: " + counted);
    }

    @Test
    void anEphemeralSamplerScoresAsTheTrainerAndALoadedStateAsItsRun() {
        String model = tinker.createModel(TestServer.BASE_MODEL, 4);
        for (int step = 0; step < 3; step++) {
            tinker.await(tinker.submit("forward_backward", forwardBackward(model, tinker.nextSeq(), "cross_entropy",
                    List.of(teaching(TAUGHT)))));
            tinker.await(tinker.submit("optim_step", optimStep(model, tinker.nextSeq(), 0.05)));
        }
        List<Double> trainer = tinker.forwardLogprobs(model, tinker.nextSeq(), TAUGHT);
        Map<String, Object> ephemeral = tinker.await(tinker.submit("save_weights_for_sampler", Map.of(
                "model_id", model, "seq_id", tinker.nextSeq(), "sampling_session_seq_id", 1)));
        tinker.assertScoresAsTrainer((String) ephemeral.get("sampling_session_id"), 0, trainer, TAUGHT);

        String saved = (String) tinker.await(tinker.submit("save_weights", Map.of("model_id", model, "path", "s1",
                "seq_id", tinker.nextSeq()))).get("path");
        String copy = tinker.createModel(TestServer.BASE_MODEL, 4);
        Map<String, Object> loaded = tinker.await(tinker.submit("load_weights", Map.of("model_id", copy, "path", saved,
                "seq_id", 1, "optimizer", true)));
        assertEquals(saved, loaded.get("path"), loaded.toString());
        List<Double> again = tinker.forwardLogprobs(copy, 2, TAUGHT);
        for (int i = 0; i < trainer.size(); i++) {
            assertEquals(trainer.get(i), again.get(i), 1e-5, "the loaded run scores as the saved one");
        }
        Map<String, Object> late = tinker.await(tinker.submit("load_weights", Map.of("model_id", copy, "path", saved,
                "seq_id", 3, "optimizer", false)));
        assertEquals("user", late.get("category"), "a load after other operations: " + late);
    }
}
