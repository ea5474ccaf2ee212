package dev.crucible.adapters.http.tinker.proto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import dev.crucible.adapters.http.tinker.proto.wire.TinkerPublic;
import dev.crucible.application.primitives.Datum;
import dev.crucible.application.primitives.ForwardBackwardInput;
import dev.crucible.application.primitives.Tensor;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Reading SDK 0.25 {@code forward_backward} bodies: what is read, and every refusal by example. */
class TinkerProtoReadTest {

    private static final TinkerProto CODEC = new TinkerProto(new ProtoLimits(4, 16));

    /** A datum as the cookbook's supervised loop builds it: tokens, shifted targets, weights. */
    private static final Datum SFT = new Datum(new int[] {11, 12, 13},
            Map.of("target_tokens", Tensor.Ints.of(12, 13, 14), "weights", Tensor.Floats.of(0f, 1f, 1f)));

    @Test
    void readsTheSdksRequestIntoThePrimitives() {
        ForwardBackwardInput input = new ForwardBackwardInput(List.of(SFT, SFT), "ppo",
                Map.of("clip_low_threshold", 0.7, "clip_high_threshold", 1.3), false);
        byte[] body = SdkRequests.request("run:train:0", 7, input).build().toByteArray();

        assertEquals(Outcome.done(new ForwardBackwardRequest("run:train:0", 7, input)),
                CODEC.readForwardBackward(body));
    }

    @Test
    void readsForwardOnlyAndAnEmptyBodyAsTheDefaults() {
        ForwardBackwardInput forward = new ForwardBackwardInput(List.of(SFT), "cross_entropy", Map.of(), true);
        assertEquals(Outcome.done(new ForwardBackwardRequest("m", 1, forward)),
                CODEC.readForwardBackward(SdkRequests.request("m", 1, forward).build().toByteArray()));
        assertEquals(Outcome.done(new ForwardBackwardRequest("", 0, new ForwardBackwardInput(List.of(), "", Map.of(),
                false))), CODEC.readForwardBackward(new byte[0]), "proto3 sends nothing for defaults");
    }

    @Test
    void concatenatesTextChunks() {
        Outcome<ForwardBackwardRequest> read = read(r -> r.addData(TinkerPublic.Datum.newBuilder()
                .addModelInput(SdkRequests.text(1, 2)).addModelInput(SdkRequests.text()).addModelInput(
                        SdkRequests.text(-3, Integer.MAX_VALUE))));
        assertEquals(new Datum(new int[] {1, 2, -3, Integer.MAX_VALUE}, Map.of()),
                read.orElseThrow().input().data().getFirst());
    }

    @Test
    void widensInt32ToIntsAndBfloat16ToFloats() {
        ByteBuffer int32 = SdkRequests.le(8).putInt(-5).putInt(Integer.MAX_VALUE);
        // bfloat16 1.0 = 0x3F80, -2.5 = 0xC020, the smallest subnormal = 0x0001
        ByteBuffer bf16 = SdkRequests.le(6).putShort((short) 0x3F80).putShort((short) 0xC020).putShort((short) 1);
        Map<String, Tensor> inputs = inputs(
                tensor(TinkerPublic.DType.DTYPE_INT32, int32.array()),
                tensor(TinkerPublic.DType.DTYPE_BFLOAT16, bf16.array()));
        assertEquals(Tensor.Ints.of(-5, Integer.MAX_VALUE), inputs.get("a"));
        assertEquals(Tensor.Floats.of(1f, -2.5f, Float.intBitsToFloat(1 << 16)), inputs.get("b"));
    }

    @Test
    void keepsAShapeThatMultipliesOut() {
        TinkerPublic.Tensor.Builder matrix = tensor(TinkerPublic.DType.DTYPE_FLOAT32, new byte[24]).addShape(2)
                .addShape(3);
        assertEquals(new Tensor.Floats(new float[6], new int[] {2, 3}), inputs(matrix, matrix).get("a"));
        TinkerPublic.Tensor.Builder empty = tensor(TinkerPublic.DType.DTYPE_INT64, new byte[0]).addShape(0)
                .addShape(Integer.MAX_VALUE);
        assertEquals(new Tensor.Ints(new long[0], new int[] {0, Integer.MAX_VALUE}), inputs(empty, empty).get("a"));
    }

    @Test
    void refusesMalformedBytesAsTheBody() {
        assertRefused(Refusal.Reason.INVALID, "body", CODEC.readForwardBackward(new byte[] {0x1a, 0x05, 0x0a}));
        assertRefused(Refusal.Reason.INVALID, "body", CODEC.readForwardBackward(new byte[] {(byte) 0xff}));
        assertRefused(Refusal.Reason.INVALID, "body", CODEC.readForwardBackward(
                "{\"model_id\":\"m\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @Test
    void refusesChunksOtherThanText() {
        TinkerPublic.Chunk image = TinkerPublic.Chunk.newBuilder().setImage(TinkerPublic.ImageChunk.newBuilder()
                .setData(ByteString.copyFromUtf8("png")).setFormat("png")).build();
        TinkerPublic.Chunk dmel = TinkerPublic.Chunk.newBuilder().setDmel(TinkerPublic.DmelChunk.newBuilder()).build();
        for (TinkerPublic.Chunk chunk : List.of(image, dmel, TinkerPublic.Chunk.getDefaultInstance())) {
            assertRefused(Refusal.Reason.INVALID, "data[1].model_input[1]", read(r -> r.addData(datum())
                    .addData(TinkerPublic.Datum.newBuilder().addModelInput(SdkRequests.text(1)).addModelInput(chunk))));
        }
    }

    @Test
    void refusesTokensThatAreNotWholeInt32s() {
        TinkerPublic.Chunk ragged = TinkerPublic.Chunk.newBuilder().setEncodedText(TinkerPublic.EncodedTextChunk
                .newBuilder().setTokens(ByteString.copyFrom(new byte[6]))).build();
        assertRefused(Refusal.Reason.INVALID, "data[0].model_input[0].encoded_text.tokens",
                read(r -> r.addData(TinkerPublic.Datum.newBuilder().addModelInput(ragged))));
    }

    @Test
    void refusesSparseAndEmptyTensors() {
        TinkerPublic.Tensor.Builder sparse = TinkerPublic.Tensor.newBuilder().setDtype(TinkerPublic.DType.DTYPE_INT64)
                .setSparseCsr(TinkerPublic.SparseCsr.newBuilder().setValues(ByteString.copyFrom(new byte[8]))
                        .setCrowIndices(ByteString.copyFrom(new byte[16]))
                        .setColIndices(ByteString.copyFrom(new byte[8])))
                .addShape(1).addShape(1);
        assertTensorRefused(sparse, "sparse");
        assertTensorRefused(TinkerPublic.Tensor.newBuilder().setDtype(TinkerPublic.DType.DTYPE_FLOAT32), "no values");
    }

    @Test
    void refusesAMissingOrUnknownDtype() {
        assertTensorRefused(TinkerPublic.Tensor.newBuilder().setDense(ByteString.copyFrom(new byte[4])), "no dtype");
        assertTensorRefused(TinkerPublic.Tensor.newBuilder().setDense(ByteString.copyFrom(new byte[4]))
                .setDtypeValue(9), "dtype 9");
    }

    @Test
    void refusesBytesThatAreNotWholeValues() {
        assertTensorRefused(tensor(TinkerPublic.DType.DTYPE_FLOAT32, new byte[6]), "6 bytes");
        assertTensorRefused(tensor(TinkerPublic.DType.DTYPE_INT64, new byte[12]), "12 bytes");
        assertTensorRefused(tensor(TinkerPublic.DType.DTYPE_BFLOAT16, new byte[3]), "3 bytes");
    }

    @Test
    void refusesAShapeThatDoesNotHoldTheValues() {
        assertTensorRefused(tensor(TinkerPublic.DType.DTYPE_FLOAT32, new byte[12]).addShape(2), "does not hold");
        assertTensorRefused(tensor(TinkerPublic.DType.DTYPE_FLOAT32, new byte[12]).addShape(3).addShape(0),
                "does not hold");
        // 2^31 * 2^31 * 4 overflows a long to 0; the product must still not be taken for 0 values
        assertTensorRefused(tensor(TinkerPublic.DType.DTYPE_FLOAT32, new byte[0]).addShape(1L << 31).addShape(1L << 31)
                .addShape(4), "above");
        assertTensorRefused(tensor(TinkerPublic.DType.DTYPE_FLOAT32, new byte[4]).addShape(-1).addShape(-1), "below 0");
        assertTensorRefused(tensor(TinkerPublic.DType.DTYPE_FLOAT32, new byte[4]).addShape(Long.MIN_VALUE), "below 0");
    }

    @Test
    void refusesMoreThanTheLimitsAsTooLarge() {
        assertRefused(Refusal.Reason.TOO_LARGE, "data", read(r -> {
            for (int i = 0; i < 5; i++) {
                r.addData(datum());
            }
            return r;
        }));
        assertTensorRefused(tensor(TinkerPublic.DType.DTYPE_BFLOAT16, new byte[34]), Refusal.Reason.TOO_LARGE, "17");
        assertRefused(Refusal.Reason.TOO_LARGE, "data[0].model_input", read(r -> r.addData(TinkerPublic.Datum
                .newBuilder().addModelInput(SdkRequests.text(new int[9]))
                .addModelInput(SdkRequests.text(new int[8])))));
        assertTrue(CODEC.readForwardBackward(SdkRequests.request("m", 1, new ForwardBackwardInput(
                List.of(SFT, SFT, SFT, SFT), "cross_entropy", Map.of(), false)).build().toByteArray())
                instanceof Outcome.Done, "exactly at the limits is read");
    }

    private static TinkerPublic.Datum.Builder datum() {
        return TinkerPublic.Datum.newBuilder().addModelInput(SdkRequests.text(1));
    }

    private static Outcome<ForwardBackwardRequest> read(UnaryOperator<TinkerPublic.ForwardBackwardRequest.Builder> b) {
        return CODEC.readForwardBackward(b.apply(TinkerPublic.ForwardBackwardRequest.newBuilder().setModelId("m")
                .setSeqId(1).setLossFn("cross_entropy")).build().toByteArray());
    }

    private static TinkerPublic.Tensor.Builder tensor(TinkerPublic.DType dtype, byte[] dense) {
        return TinkerPublic.Tensor.newBuilder().setDtype(dtype).setDense(ByteString.copyFrom(dense));
    }

    /** Reads a datum of one token whose loss inputs are {@code a} and {@code b}. */
    private static Map<String, Tensor> inputs(TinkerPublic.Tensor.Builder a, TinkerPublic.Tensor.Builder b) {
        return read(r -> r.addData(datum().putLossFnInputs("a", a.build()).putLossFnInputs("b", b.build())))
                .orElseThrow().input().data().getFirst().lossFnInputs();
    }

    private static void assertTensorRefused(TinkerPublic.Tensor.Builder tensor, String says) {
        assertTensorRefused(tensor, Refusal.Reason.INVALID, says);
    }

    private static void assertTensorRefused(TinkerPublic.Tensor.Builder tensor, Refusal.Reason reason, String says) {
        Refusal refusal = assertRefused(reason, "data[1].loss_fn_inputs.weights", read(r -> r.addData(datum())
                .addData(datum().putLossFnInputs("target_tokens", SdkRequests.tensor(Tensor.Ints.of(2)).build())
                        .putLossFnInputs("weights", tensor.build()))));
        assertTrue(refusal.message().startsWith("data[1].loss_fn_inputs.weights "), refusal.message());
        assertTrue(refusal.message().contains(says), refusal.message());
    }

    private static Refusal assertRefused(Refusal.Reason reason, String param, Outcome<?> outcome) {
        assertFalse(outcome instanceof Outcome.Done, () -> "read " + outcome);
        Refusal refusal = ((Outcome.Refused<?>) outcome).refusal();
        assertEquals(reason, refusal.reason(), refusal::message);
        assertEquals(param, refusal.param(), refusal::message);
        return refusal;
    }
}
