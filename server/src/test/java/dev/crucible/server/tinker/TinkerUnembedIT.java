package dev.crucible.server.tinker;

import static dev.crucible.server.tinker.TinkerClient.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * {@code create_model} as the SDK's {@code create_lora_training_client(base_model, rank)} sends it, with
 * {@code train_unembed} (and the MLP and attention) true by default: the run trains a LoRA of {@code lm_head} too,
 * its loss falls, a sampler made from it continues the taught tokens greedily and scores the prompt as the trainer
 * does (FP32: within {@value TinkerClient#AGREEMENT} nats per token) on the serving engine, and its weights say
 * what they train.
 */
class TinkerUnembedIT {

    private static final int[] TAUGHT = {41, 42, 43, 44, 45, 46, 47, 48, 49, 50};

    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final TinkerClient tinker = new TinkerClient(server, server.newKey("ulla"));

    @Test
    void theSdksDefaultLoraConfigTrainsTheUnembeddingAndItsSamplerUsesIt() {
        String session = tinker.createSession();
        String model = (String) tinker.await(tinker.submit("create_model", Map.of("session_id", session,
                "model_seq_id", 0, "base_model", TestServer.BASE_MODEL, "lora_config", Map.of("rank", 8, "seed", 5),
                "type", "create_model"))).get("model_id");
        List<Double> losses = tinker.teach(model, TAUGHT);
        assertTrue(losses.getLast() < losses.getFirst() / 4, "the loss falls: " + losses);
        List<Double> trainer = tinker.forwardLogprobs(model, tinker.nextSeq(), TAUGHT);

        String path = tinker.saveForSampler(model, "final");
        Map<String, Object> info = tinker.post("weights_info", Map.of("tinker_path", path)).json();
        assertEquals(true, info.get("train_unembed"), info.toString());
        String sampler = tinker.post("create_sampling_session", Map.of("session_id", session,
                "sampling_session_seq_id", 0, "model_path", path))
                .text("sampling_session_id");
        Map<String, Object> sampled = tinker.await(tinker.submit("asample", sample(sampler, 0, List.of(41, 42, 43),
                Map.of("max_tokens", 7, "temperature", 0.0), false)));
        Map<?, ?> sequence = (Map<?, ?>) ((List<?>) sampled.get("sequences")).getFirst();
        assertEquals(List.of(44, 45, 46, 47, 48, 49, 50), sequence.get("tokens"), sampled + " after " + losses);
        tinker.assertScoresAsTrainer(sampler, 1, trainer, TAUGHT);
    }
}
