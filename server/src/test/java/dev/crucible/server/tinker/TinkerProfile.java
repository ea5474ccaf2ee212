package dev.crucible.server.tinker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.crucible.adapters.http.tinker.proto.SdkRequests;
import dev.crucible.adapters.http.tinker.proto.SdkResponses;
import dev.crucible.application.primitives.Datum;
import dev.crucible.application.primitives.ForwardBackwardInput;
import dev.crucible.application.primitives.ForwardBackwardOutput;
import dev.crucible.application.primitives.Tensor;
import dev.crucible.server.support.Api;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The two request profiles of reference §1, as the SDK speaks them over a {@link TinkerClient}: JSON (SDK ≤ 0.24:
 * JSON {@code forward_backward}, {@code /forward} for forward passes, JSON futures) and protobuf (SDK 0.25: a
 * protobuf {@code forward_backward} built with the generated classes by {@link SdkRequests}, {@code forward_only} for
 * forward passes, and {@code Accept: application/x-protobuf} on the futures of forward/backward and sample results,
 * whose replies are read as {@code proto/response_conv.py} reads them, by {@link SdkResponses}). Results come back in
 * one shape whatever the profile, so a loop's test reads the same in both.
 */
enum TinkerProfile {
    JSON, PROTOBUF;

    static final String PROTOBUF_TYPE = "application/x-protobuf";
    private static final JsonMapper MAPPER = JsonMapper.createDefault();

    /** Submits a forward_backward, or a forward pass when {@code input.forwardOnly()}, answering the request id. */
    String forwardBackward(TinkerClient tinker, String model, int seq, ForwardBackwardInput input) {
        Api.Reply reply = postForwardBackward(tinker, model, seq, input);
        assertEquals(200, reply.status(), reply.toString());
        return reply.text("request_id");
    }

    /** Posts a forward_backward as this profile's SDK does, answering the reply whatever it is. */
    Api.Reply postForwardBackward(TinkerClient tinker, String model, int seq, ForwardBackwardInput input) {
        if (this == PROTOBUF) {
            return postProtobuf(tinker, SdkRequests.request(model, seq, input).build().toByteArray());
        }
        String key = input.forwardOnly() ? "forward_input" : "forward_backward_input";
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("model_id", model);
        body.put("seq_id", seq);
        body.put(key, Map.of("data", input.data().stream().map(TinkerProfile::datumJson).toList(), "loss_fn",
                input.lossFn(), "loss_fn_config", input.lossFnConfig()));
        return tinker.post(input.forwardOnly() ? "forward" : "forward_backward", body);
    }

    /** Posts protobuf bytes to forward_backward as SDK 0.25 does, answering the reply read as JSON. */
    static Api.Reply postProtobuf(TinkerClient tinker, byte[] body) {
        return Api.json(tinker.api().postBytes("/api/v1/forward_backward", Map.of("Content-Type", PROTOBUF_TYPE),
                body));
    }

    /** Waits for a forward/backward result, failing on a failure. */
    ForwardBackwardOutput awaitForwardBackward(TinkerClient tinker, String requestId) {
        if (this == PROTOBUF) {
            return awaitProtobuf(tinker, requestId, SdkResponses::forwardBackward, "ForwardBackwardOutput");
        }
        Map<String, Object> done = done(tinker.await(requestId));
        List<Map<String, Tensor>> outputs = new ArrayList<>();
        for (Object output : (List<?>) done.get("loss_fn_outputs")) {
            Map<String, Tensor> named = new LinkedHashMap<>();
            ((Map<?, ?>) output).forEach((name, tensor) -> named.put((String) name,
                    Tensor.Floats.of(floats((List<?>) ((Map<?, ?>) tensor).get("data")))));
            outputs.add(named);
        }
        Map<String, Double> metrics = new LinkedHashMap<>();
        ((Map<?, ?>) done.get("metrics")).forEach((k, v) -> metrics.put((String) k, ((Number) v).doubleValue()));
        return new ForwardBackwardOutput((String) done.get("loss_fn_output_type"), outputs, metrics);
    }

    /** Waits for a sample result as the SDK holds it (null where the reply has no value), failing on a failure. */
    SdkResponses.Sample awaitSample(TinkerClient tinker, String requestId) {
        if (this == PROTOBUF) {
            return awaitProtobuf(tinker, requestId, SdkResponses::sample, "SampleResponse");
        }
        Map<String, Object> done = done(tinker.await(requestId));
        List<SdkResponses.Sequence> sequences = new ArrayList<>();
        for (Object s : (List<?>) done.get("sequences")) {
            Map<?, ?> sequence = (Map<?, ?>) s;
            sequences.add(new SdkResponses.Sequence((String) sequence.get("stop_reason"),
                    ((List<?>) sequence.get("tokens")).stream().map(t -> ((Number) t).intValue()).toList(),
                    boxed((List<?>) sequence.get("logprobs"))));
        }
        List<?> prompt = (List<?>) done.get("prompt_logprobs");
        return new SdkResponses.Sample(sequences, prompt == null ? null : boxed(prompt), null,
                ((Number) done.get("prompt_cache_hit_tokens")).intValue());
    }

    /** How the SDK reads a protobuf reply. */
    @FunctionalInterface
    interface ProtobufReader<T> {
        T read(byte[] body) throws InvalidProtocolBufferException;
    }

    /** {@link #awaitProtobuf(TinkerClient, String)} read by {@code reader}; bytes that are not a {@code what} fail. */
    static <T> T awaitProtobuf(TinkerClient tinker, String requestId, ProtobufReader<T> reader, String what) {
        try {
            return reader.read(awaitProtobuf(tinker, requestId));
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError("not a " + what, e);
        }
    }

    /**
     * Polls a future with {@code Accept: application/x-protobuf} until it is no longer {@code try_again}, and answers
     * the protobuf body; a JSON result instead fails (SDK 0.25 rejects JSON for these results).
     */
    static byte[] awaitProtobuf(TinkerClient tinker, String requestId) {
        while (true) {
            Api.Bytes reply = retrieveAccepting(tinker, requestId, PROTOBUF_TYPE);
            assertEquals(200, reply.status(), new String(reply.body(), java.nio.charset.StandardCharsets.UTF_8));
            if (contentType(reply).startsWith(PROTOBUF_TYPE)) {
                return reply.body();
            }
            Map<String, Object> json = Api.json(reply).json();
            if (!"try_again".equals(json.get("type"))) {
                return fail("a JSON reply where the SDK asked for protobuf: " + json);
            }
        }
    }

    /** One retrieve_future poll with {@code Accept: accept}, the reply kept as bytes. */
    static Api.Bytes retrieveAccepting(TinkerClient tinker, String requestId, String accept) {
        byte[] body;
        try {
            body = MAPPER.writeValueAsBytes(Map.of("request_id", requestId, "allow_metadata_only", true));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tinker.api().postBytes("/api/v1/retrieve_future", Map.of("Content-Type", "application/json",
                "Accept", accept, "X-Tinker-Request-Type", "ForwardBackward"), body);
    }

    static String contentType(Api.Bytes reply) {
        return reply.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("content-type"))
                .flatMap(e -> e.getValue().stream()).findFirst().orElse("");
    }

    private static Map<String, Object> done(Map<String, Object> reply) {
        assertNull(reply.get("error"), () -> "the operation failed: " + reply);
        assertTrue(!reply.containsKey("category"), () -> "the operation failed: " + reply);
        return reply;
    }

    private static Map<String, Object> datumJson(Datum datum) {
        Map<String, Object> inputs = new LinkedHashMap<>();
        datum.lossFnInputs().forEach((name, tensor) -> inputs.put(name, switch (tensor) {
            case Tensor.Floats f -> Map.of("data", boxed(f.values()), "dtype", "float32", "shape",
                    List.of(f.size()));
            case Tensor.Ints i -> Map.of("data", java.util.Arrays.stream(i.values()).boxed().toList(), "dtype",
                    "int64", "shape", List.of(i.size()));
        }));
        List<Integer> tokens = java.util.Arrays.stream(datum.modelInput()).boxed().toList();
        return TinkerClient.datum(tokens, inputs);
    }

    private static List<Float> boxed(float[] values) {
        List<Float> out = new ArrayList<>(values.length);
        for (float v : values) {
            out.add(v);
        }
        return out;
    }

    private static List<Float> boxed(List<?> values) {
        return values.stream().map(v -> v == null ? null : ((Number) v).floatValue()).toList();
    }

    private static float[] floats(List<?> values) {
        float[] out = new float[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = values.get(i) == null ? Float.NaN : ((Number) values.get(i)).floatValue();
        }
        return out;
    }
}
