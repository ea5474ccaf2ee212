package dev.crucible.server.tinker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HTTP calls the Tinker SDK makes, as it makes them (reference §3-§5, JSON profile): {@code X-API-Key: tml-<key>},
 * submits that answer a request id, and futures polled until they are no longer {@code try_again}.
 */
final class TinkerClient {

    /**
     * How far a sampler's prompt logprob may be from the trainer's for the same token, in nats: trainer (DJL) and
     * sampler (the serving engine) compute in FP32 in different orders.
     */
    static final double AGREEMENT = 5e-3;

    private final Api api;
    private int seq;

    TinkerClient(TestServer server, String key) {
        this(server.api(null).withHeader("X-API-Key", "tml-" + key));
    }

    TinkerClient(Api api) {
        this.api = api;
    }

    Api api() {
        return api;
    }

    Api.Reply post(String route, Map<String, Object> body) {
        return api.post("/api/v1/" + route, body);
    }

    /** Submits and answers the request id, failing unless the submit was accepted. */
    String submit(String route, Map<String, Object> body) {
        Api.Reply reply = post(route, body);
        assertEquals(200, reply.status(), reply.toString());
        return reply.text("request_id");
    }

    /** Polls the future until it is done or failed. */
    Map<String, Object> await(String requestId) {
        while (true) {
            Api.Reply reply = post("retrieve_future", Map.of("request_id", requestId, "allow_metadata_only", true));
            assertEquals(200, reply.status(), reply.toString());
            if (!"try_again".equals(reply.json().get("type"))) {
                return reply.json();
            }
        }
    }

    String createModel(String base, int rank) {
        Map<String, Object> done = await(submit("create_model", createModelBody(base, rank)));
        return (String) done.get("model_id");
    }

    static Map<String, Object> createModelBody(String base, int rank) {
        return Map.of("base_model", base, "lora_config", Map.of("rank", rank, "seed", 3, "train_unembed", false,
                "train_mlp", true, "train_attn", true), "type", "create_model");
    }

    /** The next seq_id of this client's one training client (the first after create_model is 1). */
    int nextSeq() {
        return ++seq;
    }

    static Map<String, Object> forwardBackward(String model, int seq, String loss, List<Map<String, Object>> data) {
        return Map.of("model_id", model, "seq_id", seq, "forward_backward_input", Map.of("data", data, "loss_fn",
                loss), "type", "forward_backward");
    }

    static Map<String, Object> optimStep(String model, int seq, double lr) {
        return Map.of("model_id", model, "seq_id", seq, "adam_params", Map.of("learning_rate", lr, "beta1", 0.9,
                "beta2", 0.95, "eps", 1e-12, "weight_decay", 0.0, "grad_clip_norm", 0.0), "type", "optim_step");
    }

    /**
     * Awaits every future of {@code ids}, each done (with metrics) or failed as the server's (category {@code server}):
     * how many of each, in that order.
     */
    int[] doneOrServerFailures(List<String> ids) {
        int[] counts = new int[2];
        for (String id : ids) {
            Map<String, Object> answer = await(id);
            if (answer.containsKey("metrics")) {
                counts[0]++;
            } else {
                assertEquals("server", answer.get("category"), "neither done nor failed: " + answer);
                counts[1]++;
            }
        }
        return counts;
    }

    /** Four datums of 96 tokens: a forward_backward that takes a while, to be caught running by a kill. */
    static List<Map<String, Object>> heavyBatch() {
        int[] tokens = new int[96];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = 10 + i % 50;
        }
        return List.of(teaching(tokens), teaching(tokens), teaching(tokens), teaching(tokens));
    }

    /** A cross-entropy datum teaching {@code tokens}: position i reads tokens[0..i] and predicts tokens[i+1]. */
    static Map<String, Object> teaching(int... tokens) {
        List<Integer> input = new ArrayList<>();
        List<Integer> targets = new ArrayList<>();
        List<Double> weights = new ArrayList<>();
        for (int i = 0; i + 1 < tokens.length; i++) {
            input.add(tokens[i]);
            targets.add(tokens[i + 1]);
            weights.add(1.0);
        }
        return datum(input, Map.of("target_tokens", Map.of("data", targets, "dtype", "int64"),
                "weights", Map.of("data", weights, "dtype", "float32")));
    }

    static Map<String, Object> datum(List<Integer> input, Map<String, Object> inputs) {
        Map<String, Object> datum = new LinkedHashMap<>();
        datum.put("model_input", Map.of("chunks", List.of(Map.of("tokens", input, "type", "encoded_text"))));
        datum.put("loss_fn_inputs", inputs);
        return datum;
    }

    /**
     * The supervised loop of the cookbook: {@code forward_backward} (cross-entropy over {@link #teaching} {@code tokens})
     * and {@code optim_step} (lr 0.02) sent back to back, until the loss is under 0.05 or 80 steps; the losses.
     */
    List<Double> teach(String model, int... tokens) {
        List<Double> losses = new ArrayList<>();
        for (int step = 0; step < 80 && (losses.isEmpty() || losses.getLast() > 0.05); step++) {
            String fb = submit("forward_backward", forwardBackward(model, nextSeq(), "cross_entropy",
                    List.of(teaching(tokens))));
            String opt = submit("optim_step", optimStep(model, nextSeq(), 0.02));
            losses.add(((Number) ((Map<?, ?>) await(fb).get("metrics")).get("loss:sum")).doubleValue());
            await(opt);
        }
        return losses;
    }

    /** The per-target logprobs of a {@code forward} (no gradient) over {@link #teaching} {@code tokens}. */
    List<Double> forwardLogprobs(String model, int seq, int... tokens) {
        Map<String, Object> result = await(submit("forward", Map.of("model_id", model, "seq_id", seq,
                "forward_input", Map.of("data", List.of(teaching(tokens)), "loss_fn", "cross_entropy"))));
        Map<?, ?> output = (Map<?, ?>) ((List<?>) result.get("loss_fn_outputs")).getFirst();
        return ((List<?>) ((Map<?, ?>) output.get("logprobs")).get("data")).stream()
                .map(v -> ((Number) v).doubleValue()).toList();
    }

    /** Opens a session as the SDK does; answers its id. */
    String createSession() {
        return post("create_session", Map.of("tags", List.of(), "type", "create_session")).text("session_id");
    }

    /** Saves the run's weights for sampling under {@code name}; answers their {@code tinker://} path. */
    String saveForSampler(String model, String name) {
        return (String) await(submit("save_weights_for_sampler", Map.of("model_id", model, "path", name, "seq_id",
                nextSeq()))).get("path");
    }

    /**
     * Asserts that {@code sampler}, given {@code tokens} as a prompt (request {@code seq}), scores each token after
     * the first within {@link #AGREEMENT} of {@code trainer}, the trainer's logprobs of the same targets.
     */
    void assertScoresAsTrainer(String sampler, int seq, List<Double> trainer, int... tokens) {
        Map<String, Object> scored = await(submit("asample", sample(sampler, seq, Arrays.stream(tokens).boxed()
                .toList(), Map.of("max_tokens", 1), true)));
        List<?> promptLogprobs = (List<?>) scored.get("prompt_logprobs");
        assertEquals(null, promptLogprobs.getFirst(), "the first prompt token has no logprob");
        for (int i = 1; i < tokens.length; i++) {
            assertEquals(trainer.get(i - 1), ((Number) promptLogprobs.get(i)).doubleValue(), AGREEMENT,
                    "position " + i + ": trainer " + trainer + ", sampler " + promptLogprobs);
        }
    }

    /** An {@code asample} body: one sample of {@code prompt}, with or without the prompt's logprobs. */
    static Map<String, Object> sample(String sampler, int seq, List<Integer> prompt, Map<String, Object> params,
            boolean promptLogprobs) {
        return Map.of("sampling_session_id", sampler, "seq_id", seq, "num_samples", 1, "prompt", Map.of("chunks",
                List.of(Map.of("tokens", prompt, "type", "encoded_text"))), "sampling_params", params,
                "prompt_logprobs", promptLogprobs, "topk_prompt_logprobs", 0, "type", "sample");
    }

    /** The base model's vocabulary size, from its config.json. */
    static int vocabSize(TestServer server) {
        try {
            String config = Files.readString(server.dataDir().resolve("models").resolve(TestServer.BASE_MODEL)
                    .resolve("config.json"));
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"vocab_size\"\\s*:\\s*(\\d+)").matcher(config);
            if (!m.find()) {
                throw new IllegalStateException("no vocab_size in " + config);
            }
            return Integer.parseInt(m.group(1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
