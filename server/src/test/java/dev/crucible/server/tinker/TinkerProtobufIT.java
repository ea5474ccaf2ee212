package dev.crucible.server.tinker;

import static dev.crucible.server.tinker.TinkerClient.optimStep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.crucible.adapters.http.tinker.proto.SdkRequests;
import dev.crucible.adapters.http.tinker.proto.SdkResponses;
import dev.crucible.adapters.http.tinker.proto.wire.TinkerPublic;
import dev.crucible.application.primitives.Datum;
import dev.crucible.application.primitives.ForwardBackwardInput;
import dev.crucible.application.primitives.ForwardBackwardOutput;
import dev.crucible.application.primitives.Tensor;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.TestServer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The SDK 0.25 profile over HTTP on a tiny model: the cookbook's supervised loop with protobuf
 * {@code forward_backward} bodies made by the generated classes and protobuf futures read as the SDK reads them
 * (the loss falls, a forward pass scores as the loop did, the named sampler's greedy sample continues the taught
 * tokens); every other reply stays JSON; a retry of the same bytes dedupes; bad bodies are 4xx naming the field.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TinkerProtobufIT {

    private static final int[] TAUGHT = {31, 32, 33, 34, 35, 36, 37, 38, 39, 40};

    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.primitives.max-runs-per-entity", 8));
    private final String key = server.newKey("pia");
    private final TinkerClient tinker = new TinkerClient(server, key);
    private final TinkerProfile profile = TinkerProfile.PROTOBUF;

    @Test
    void theSupervisedLoopInProtobufTeachesTokensThatTheSamplerContinues() {
        tinker.post("client/config", Map.of("sdk_version", "0.25.0"));
        String session = tinker.post("create_session", Map.of("tags", List.of(), "sdk_version", "0.25.0",
                "type", "create_session")).text("session_id");
        String model = tinker.createModel(TestServer.BASE_MODEL, 8);

        List<Double> losses = new ArrayList<>();
        ForwardBackwardOutput last = null;
        for (int step = 0; step < 80 && (losses.isEmpty() || losses.getLast() > 0.05); step++) {
            String fb = profile.forwardBackward(tinker, model, tinker.nextSeq(), crossEntropy(false, TAUGHT));
            String opt = tinker.submit("optim_step", optimStep(model, tinker.nextSeq(), 0.02));
            last = profile.awaitForwardBackward(tinker, fb);
            assertEquals("TensorData", last.lossFnOutputType().substring(last.lossFnOutputType().lastIndexOf(':') + 1));
            float[] logprobs = logprobs(last);
            assertEquals(TAUGHT.length - 1, logprobs.length, "one logprob per position");
            double sum = 0;
            for (float lp : logprobs) {
                sum -= lp;
            }
            assertEquals(sum, last.metrics().get("loss:sum"), 1e-3 * Math.max(1, sum), "loss:sum = Σ -lp·w");
            losses.add(last.metrics().get("loss:sum"));
            Api.Bytes optReply = TinkerProfile.retrieveAccepting(tinker, opt, TinkerProfile.PROTOBUF_TYPE);
            assertTrue(TinkerProfile.contentType(optReply).startsWith("application/json"),
                    "an optim_step result stays JSON when protobuf is accepted");
            tinker.await(opt);
        }
        assertTrue(losses.getLast() < losses.getFirst() / 4, "the loss falls: " + losses);

        ForwardBackwardOutput forward = profile.awaitForwardBackward(tinker, profile.forwardBackward(tinker, model,
                tinker.nextSeq(), crossEntropy(true, TAUGHT)));
        assertTrue(forward.metrics().get("loss:sum") < losses.getFirst() / 4, "forward_only scores the trained run: "
                + forward.metrics());

        String path = (String) tinker.await(tinker.submit("save_weights_for_sampler", Map.of("model_id", model,
                "path", "final", "seq_id", tinker.nextSeq()))).get("path");
        String sampler = tinker.post("create_sampling_session", Map.of("session_id", session,
                "sampling_session_seq_id", 0, "model_path", path)).text("sampling_session_id");
        SdkResponses.Sample sample = profile.awaitSample(tinker, tinker.submit("asample", Map.of(
                "sampling_session_id", sampler, "seq_id", 0, "num_samples", 1, "prompt", Map.of("chunks",
                        List.of(Map.of("tokens", List.of(31, 32, 33), "type", "encoded_text"))),
                "sampling_params", Map.of("max_tokens", 7, "temperature", 0.0), "prompt_logprobs", true,
                "topk_prompt_logprobs", 0, "type", "sample")));
        SdkResponses.Sequence sequence = sample.sequences().getFirst();
        assertEquals(List.of(34, 35, 36, 37, 38, 39, 40), sequence.tokens(), sample + " after " + losses);
        assertEquals(7, sequence.logprobs().size(), "a logprob per sampled token");
        assertEquals("length", sequence.stopReason());
        assertEquals(null, sample.promptLogprobs().getFirst(), "the first prompt token has no logprob: NaN → None");
        assertEquals(3, sample.promptLogprobs().size());
    }

    @Test
    void anIdenticalRetryDedupesAndOtherRepliesStayJson() throws Exception {
        String model = tinker.createModel(TestServer.BASE_MODEL, 2);
        int seq = tinker.nextSeq();
        byte[] body = SdkRequests.request(model, seq, crossEntropy(false, TAUGHT)).build().toByteArray();
        Api.Reply first = TinkerProfile.postProtobuf(tinker, body);
        assertEquals(200, first.status(), first.toString());
        assertEquals(first.text("request_id"), TinkerProfile.postProtobuf(tinker, body).text("request_id"));
        TinkerProfile.postProtobuf(tinker, SdkRequests.request(model, seq, crossEntropy(false, 1, 2, 3)).build()
                .toByteArray()).assertRefused(400, "seq_id", "different request");
        ForwardBackwardOutput once = SdkResponses.forwardBackward(TinkerProfile.awaitProtobuf(tinker,
                first.text("request_id")));
        assertEquals(once, SdkResponses.forwardBackward(TinkerProfile.awaitProtobuf(tinker, first.text("request_id"))),
                "a result is answered again, the same");
        assertEquals(once.metrics(), profile.awaitForwardBackward(tinker, first.text("request_id")).metrics());
        Map<String, Object> json = tinker.await(first.text("request_id"));
        assertEquals(once.metrics().get("loss:sum"), ((Number) ((Map<?, ?>) json.get("metrics")).get("loss:sum"))
                .doubleValue(), 1e-6, "without Accept the same result is JSON");

        tinker.await(tinker.submit("unload_model", Map.of("model_id", model)));
        String late = profile.forwardBackward(tinker, model, tinker.nextSeq(), crossEntropy(false, TAUGHT));
        Api.Bytes failed = TinkerProfile.retrieveAccepting(tinker, late, TinkerProfile.PROTOBUF_TYPE);
        assertTrue(TinkerProfile.contentType(failed).startsWith("application/json"), "a failure stays JSON");
        Map<String, Object> failure = Api.json(failed).json();
        assertEquals("user", failure.get("category"), failure.toString());
        assertNotEquals(null, failure.get("error"));

        Api.Reply unknown = Api.json(TinkerProfile.retrieveAccepting(tinker, "not-an-id", TinkerProfile.PROTOBUF_TYPE));
        unknown.assertRefused(404, "request_id");
    }

    @Test
    void badProtobufIsA4xxThatNamesTheField() {
        String model = tinker.createModel(TestServer.BASE_MODEL, 2);
        int vocab = TinkerClient.vocabSize(server);
        TinkerProfile.postProtobuf(tinker, new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF})
                .assertRefused(400, "body");
        TinkerProfile.postProtobuf(tinker, new byte[0]).assertRefused(400, "body");

        TinkerPublic.ForwardBackwardRequest.Builder sparse = valid(model);
        sparse.getDataBuilder(0).putLossFnInputs("target_tokens", TinkerPublic.Tensor.newBuilder()
                .setDtype(TinkerPublic.DType.DTYPE_INT64).addShape(1).addShape(TAUGHT.length - 1)
                .setSparseCsr(TinkerPublic.SparseCsr.newBuilder().setValues(ByteString.copyFrom(new byte[8]))
                        .setCrowIndices(ByteString.copyFrom(new byte[16])).setColIndices(ByteString.copyFrom(
                                new byte[8]))).build());
        refused(sparse, 400, "data[0].loss_fn_inputs.target_tokens");

        TinkerPublic.ForwardBackwardRequest.Builder dtype = valid(model);
        dtype.getDataBuilder(0).putLossFnInputs("weights", SdkRequests.tensor(Tensor.Floats.of(new float[
                TAUGHT.length - 1])).setDtype(TinkerPublic.DType.DTYPE_UNSPECIFIED).build());
        refused(dtype, 400, "data[0].loss_fn_inputs.weights");

        TinkerPublic.ForwardBackwardRequest.Builder shape = valid(model);
        shape.getDataBuilder(0).putLossFnInputs("weights", SdkRequests.tensor(Tensor.Floats.of(new float[
                TAUGHT.length - 1])).clearShape().addShape(2).addShape(2).build());
        refused(shape, 400, "data[0].loss_fn_inputs.weights");

        TinkerPublic.ForwardBackwardRequest.Builder length = valid(model);
        length.getDataBuilder(0).putLossFnInputs("weights", SdkRequests.tensor(Tensor.Floats.of(new float[
                TAUGHT.length])).build());
        refused(length, 400, "data[0].loss_fn_inputs.weights");

        refused(valid(model).setLossFn("ppo_or_worse"), 400, "loss_fn");
        refused(SdkRequests.request(model, tinker.nextSeq(), crossEntropy(false, 1, 2, vocab)), 400,
                "data[0].loss_fn_inputs.target_tokens");
        refused(SdkRequests.request(model, tinker.nextSeq(), crossEntropy(false, vocab + 3, 2, 3)), 400,
                "data[0].model_input");
        refused(valid(model).clearData(), 400, "data");
        refused(valid(model).setSeqId(-1), 400, "seq_id");
        refused(valid(model).putLossFnConfig("clip_low_threshold", 0.5), 400, "loss_fn_config.clip_low_threshold");
        TinkerPublic.ForwardBackwardRequest.Builder image = valid(model);
        image.getDataBuilder(0).addModelInput(TinkerPublic.Chunk.newBuilder().setImage(TinkerPublic.ImageChunk
                .newBuilder().setFormat("png").setData(ByteString.copyFrom(new byte[4]))));
        refused(image, 400, "data[0].model_input[1]");

        TinkerClient other = new TinkerClient(server, server.newKey("oz"));
        TinkerProfile.postProtobuf(other, valid(model).build().toByteArray()).assertRefused(404, "model_id");

        Api.Reply zstd = Api.json(tinker.api().postBytes("/api/v1/forward_backward", Map.of("Content-Type",
                TinkerProfile.PROTOBUF_TYPE, "Content-Encoding", "zstd"), valid(model).build().toByteArray()));
        zstd.assertRefused(415, "Content-Encoding", "proto_compress_fwdbwd");
    }

    private TinkerPublic.ForwardBackwardRequest.Builder valid(String model) {
        return SdkRequests.request(model, tinker.nextSeq(), crossEntropy(false, TAUGHT));
    }

    private void refused(TinkerPublic.ForwardBackwardRequest.Builder request, int status, String param) {
        TinkerProfile.postProtobuf(tinker, request.build().toByteArray()).assertRefused(status, param);
    }

    /** A cross-entropy datum teaching {@code tokens}, as the cookbook's {@code conversation_to_datum} makes it. */
    static ForwardBackwardInput crossEntropy(boolean forwardOnly, int... tokens) {
        int n = tokens.length - 1;
        long[] targets = new long[n];
        float[] weights = new float[n];
        for (int i = 0; i < n; i++) {
            targets[i] = tokens[i + 1];
            weights[i] = 1;
        }
        Datum datum = new Datum(Arrays.copyOf(tokens, n), Map.of("target_tokens", Tensor.Ints.of(targets),
                "weights", Tensor.Floats.of(weights)));
        return new ForwardBackwardInput(List.of(datum), "cross_entropy", Map.of(), forwardOnly);
    }

    private static float[] logprobs(ForwardBackwardOutput output) {
        return ((Tensor.Floats) output.lossFnOutputs().getFirst().get("logprobs")).values();
    }
}
