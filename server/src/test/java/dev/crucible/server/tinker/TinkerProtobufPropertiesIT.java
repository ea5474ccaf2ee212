package dev.crucible.server.tinker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.crucible.adapters.http.tinker.proto.SdkRequests;
import dev.crucible.adapters.http.tinker.proto.wire.TinkerPublic;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.TestServer;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Generated protobuf bodies posted to {@code forward_backward} as SDK 0.25 posts them: random bytes, a valid request
 * with bytes replaced or cut off, and requests built field by field with arbitrary values (unknown dtypes, shapes
 * that do not fit or overflow, byte lengths that are no whole number of values, unknown losses and settings, NaN,
 * chunks of every kind). None may be answered with a 5xx; every refusal is the one envelope with its status and
 * names a field. Bounded: 250 requests.
 */
class TinkerProtobufPropertiesIT {

    private static TestServer server;
    private static TinkerClient tinker;
    private static String model;
    private static byte[] valid;

    @BeforeContainer
    static void start() {
        server = TestServer.start(Map.of());
        tinker = new TinkerClient(server, server.newKey("prop"));
        model = tinker.createModel(TestServer.BASE_MODEL, 1);
        valid = SdkRequests.request(model, 1, TinkerProtobufIT.crossEntropy(false, 1, 2, 3, 4, 5)).build()
                .toByteArray();
    }

    @AfterContainer
    static void stop() {
        server.close();
    }

    @Property(tries = 250, shrinking = ShrinkingMode.BOUNDED)
    void aGeneratedBodyIsNeverA5xx(@ForAll("bodies") byte[] body) {
        Api.Reply reply = TinkerProfile.postProtobuf(tinker, body);
        assertTrue(reply.status() < 500, reply.toString());
        Statistics.collect(reply.status(), reply.status() == 200 ? "" : String.valueOf(reply.error().get("param"))
                .replaceAll("\\[\\d+]", "[i]"));
        if (reply.status() != 200) {
            assertEquals(reply.status(), ((Number) reply.error().get("code")).intValue(), reply.toString());
            assertNotNull(reply.error().get("param"), "a refusal names the field: " + reply);
        } else {
            assertNotNull(reply.text("request_id"), reply.toString());
        }
    }

    @Provide
    Arbitrary<byte[]> bodies() {
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        Arbitrary<byte[]> replaced = Arbitraries.integers().between(0, valid.length - 1).list().ofMinSize(1)
                .ofMaxSize(4).flatMap(at -> Arbitraries.bytes().list().ofSize(at.size()).map(with -> {
                    byte[] out = valid.clone();
                    for (int i = 0; i < at.size(); i++) {
                        out[at.get(i)] = with.get(i);
                    }
                    return out;
                }));
        Arbitrary<byte[]> cut = Arbitraries.integers().between(1, valid.length - 1)
                .map(n -> java.util.Arrays.copyOf(valid, n));
        return Arbitraries.frequencyOf(Tuple.of(1, random), Tuple.of(2, replaced), Tuple.of(1, cut),
                Tuple.of(5, requests()));
    }

    private static Arbitrary<byte[]> requests() {
        Arbitrary<String> loss = Arbitraries.of("cross_entropy", "importance_sampling", "ppo", "cispo", "dro", "",
                "mse");
        Arbitrary<Map<String, Double>> config = Arbitraries.maps(Arbitraries.of("clip_low_threshold",
                "clip_high_threshold", "beta", "x"), Arbitraries.of(0.0, 0.5, 1.2, -1.0, Double.NaN,
                Double.POSITIVE_INFINITY, 1e300)).ofMaxSize(2);
        Arbitrary<List<TinkerPublic.Datum>> data = Arbitraries.frequencyOf(Tuple.of(1, datum()),
                Tuple.of(3, nearlyValidDatum())).list().ofMaxSize(3);
        Arbitrary<String> modelId = Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.just(model)),
                Tuple.of(1, Arbitraries.strings().ofMaxLength(40)));
        Arbitrary<Integer> seq = Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.integers().between(2, 1_000_000)),
                Tuple.of(1, Arbitraries.integers()));
        return Combinators.combine(modelId, seq, loss, config, data, Arbitraries.of(true, false))
                .as((id, place, lossFn, settings, datums, forwardOnly) -> TinkerPublic.ForwardBackwardRequest
                        .newBuilder().setModelId(id).setSeqId(place).setLossFn(lossFn).putAllLossFnConfig(settings)
                        .addAllData(datums).setForwardOnly(forwardOnly).build().toByteArray());
    }

    /** A cross-entropy datum as the SDK sends it, with at most one loss input replaced by an arbitrary tensor. */
    private static Arbitrary<TinkerPublic.Datum> nearlyValidDatum() {
        Arbitrary<int[]> tokens = Arbitraries.integers().between(0, 60).array(int[].class).ofMinSize(2).ofMaxSize(12);
        Arbitrary<Map<String, TinkerPublic.Tensor>> replaced = Arbitraries.maps(Arbitraries.of("target_tokens",
                "weights", "logprobs"), tensor()).ofMaxSize(1);
        return Combinators.combine(tokens, replaced).as((t, with) -> {
            TinkerPublic.Datum.Builder datum = SdkRequests.request(model, 0, TinkerProtobufIT.crossEntropy(false, t))
                    .getData(0).toBuilder();
            return datum.putAllLossFnInputs(with).build();
        });
    }

    private static Arbitrary<TinkerPublic.Datum> datum() {
        Arbitrary<TinkerPublic.Chunk> text = Arbitraries.integers().between(-2, 300).list().ofMaxSize(8)
                .map(tokens -> SdkRequests.text(tokens.stream().mapToInt(Integer::intValue).toArray()));
        Arbitrary<TinkerPublic.Chunk> oddText = bytes(11).map(b -> TinkerPublic.Chunk.newBuilder().setEncodedText(
                TinkerPublic.EncodedTextChunk.newBuilder().setTokens(b)).build());
        Arbitrary<TinkerPublic.Chunk> image = bytes(8).map(b -> TinkerPublic.Chunk.newBuilder().setImage(
                TinkerPublic.ImageChunk.newBuilder().setData(b).setFormat("png")).build());
        Arbitrary<TinkerPublic.Chunk> dmel = bytes(8).map(b -> TinkerPublic.Chunk.newBuilder().setDmel(
                TinkerPublic.DmelChunk.newBuilder().setDmel(b)).build());
        Arbitrary<TinkerPublic.Chunk> empty = Arbitraries.just(TinkerPublic.Chunk.getDefaultInstance());
        Arbitrary<List<TinkerPublic.Chunk>> input = Arbitraries.frequencyOf(
                Tuple.of(6, text), Tuple.of(1, oddText), Tuple.of(1, image),
                Tuple.of(1, dmel), Tuple.of(1, empty)).list().ofMaxSize(3);
        Arbitrary<Map<String, TinkerPublic.Tensor>> inputs = Arbitraries.maps(Arbitraries.of("target_tokens",
                "weights", "logprobs", "advantages", "other"), tensor()).ofMaxSize(4);
        return Combinators.combine(input, inputs).as((chunks, named) -> TinkerPublic.Datum.newBuilder()
                .addAllModelInput(chunks).putAllLossFnInputs(named).build());
    }

    private static Arbitrary<TinkerPublic.Tensor> tensor() {
        Arbitrary<List<Long>> shape = Arbitraries.oneOf(Arbitraries.longs().between(-2, 10),
                Arbitraries.of(Long.MAX_VALUE, Long.MIN_VALUE, 1L << 32)).list().ofMaxSize(3);
        Arbitrary<TinkerPublic.Tensor> dense = Combinators.combine(Arbitraries.integers().between(0, 6), bytes(64),
                shape).as((dtype, values, dims) -> TinkerPublic.Tensor.newBuilder().setDtypeValue(dtype)
                        .setDense(values).addAllShape(dims).build());
        Arbitrary<TinkerPublic.Tensor> sparse = Combinators.combine(bytes(16), bytes(16), shape).as((v, crow, dims) ->
                TinkerPublic.Tensor.newBuilder().setDtype(TinkerPublic.DType.DTYPE_FLOAT32).addAllShape(dims)
                        .setSparseCsr(TinkerPublic.SparseCsr.newBuilder().setValues(v).setCrowIndices(crow)
                                .setColIndices(crow)).build());
        return Arbitraries.frequencyOf(Tuple.of(5, dense), Tuple.of(1, sparse));
    }

    private static Arbitrary<ByteString> bytes(int max) {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(max).map(ByteString::copyFrom);
    }
}
