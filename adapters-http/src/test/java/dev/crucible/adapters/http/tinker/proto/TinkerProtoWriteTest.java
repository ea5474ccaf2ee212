package dev.crucible.adapters.http.tinker.proto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.crucible.adapters.http.tinker.proto.wire.TinkerPublic;
import dev.crucible.application.primitives.ForwardBackwardOutput;
import dev.crucible.application.primitives.SampleOutput;
import dev.crucible.application.primitives.SampleOutput.TokenLogprob;
import dev.crucible.application.primitives.Tensor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Writing results: the messages as the generated classes parse them (byte for byte where the reference fixes the
 * layout), and as the SDK's reader ({@link SdkResponses}) takes them.
 */
class TinkerProtoWriteTest {

    private static final ForwardBackwardOutput TWO_DATUMS = new ForwardBackwardOutput("tinker:ArrayRecord",
            List.of(Map.of("logprobs", Tensor.Floats.of(-1f, -2f, -3f)),
                    Map.of("logprobs", Tensor.Floats.of(-0.5f), "elementwise_loss", Tensor.Floats.of(0.5f))),
            Map.of("loss:sum", 6.5, "tokens:sum", 4.0));

    @Test
    void batchesEachOutputFieldWithByteOffsets() throws InvalidProtocolBufferException {
        TinkerPublic.ForwardBackwardOutput proto = TinkerPublic.ForwardBackwardOutput.parseFrom(
                TinkerProto.write(TWO_DATUMS));

        assertEquals("tinker:ArrayRecord", proto.getLossFnOutputType());
        assertEquals(Map.of("loss:sum", 6.5, "tokens:sum", 4.0), proto.getMetricsMap());
        assertEquals(1, proto.getLossFnOutputsCount());
        TinkerPublic.ArrayRecord record = proto.getLossFnOutputs(0);
        assertEquals(2, record.getNumDatums());
        TinkerPublic.BatchedTensor logprobs = record.getFieldsOrThrow("logprobs");
        assertEquals(TinkerPublic.DType.DTYPE_FLOAT32, logprobs.getDtype());
        assertEquals(List.of(), logprobs.getTrailingShapeList(), "1-D outputs have no trailing shape");
        assertArrayEquals(new long[] {0, 12, 16}, longs(logprobs.getOffsets().toByteArray()));
        assertArrayEquals(new float[] {-1f, -2f, -3f, -0.5f}, floats(logprobs.getData().toByteArray()));
        TinkerPublic.BatchedTensor loss = record.getFieldsOrThrow("elementwise_loss");
        assertArrayEquals(new long[] {0, 0, 4}, longs(loss.getOffsets().toByteArray()), "absent: an empty slice");
    }

    @Test
    void theSdkReadsTheOutputBackWithItsClassNameAndShapes() throws InvalidProtocolBufferException {
        ForwardBackwardOutput matrices = new ForwardBackwardOutput("ArrayRecord", List.of(
                Map.of("topk", new Tensor.Ints(new long[] {1, 2, 3, 4, 5, 6}, new int[] {3, 2})),
                Map.of("topk", new Tensor.Ints(new long[] {Long.MIN_VALUE, Long.MAX_VALUE}, new int[] {1, 2}))),
                Map.of());
        TinkerPublic.BatchedTensor topk = TinkerPublic.ForwardBackwardOutput.parseFrom(TinkerProto.write(matrices))
                .getLossFnOutputs(0).getFieldsOrThrow("topk");
        assertEquals(List.of(2L), topk.getTrailingShapeList());
        assertEquals(TinkerPublic.DType.DTYPE_INT64, topk.getDtype());
        assertEquals(matrices, SdkResponses.forwardBackward(TinkerProto.write(matrices)));

        ForwardBackwardOutput read = SdkResponses.forwardBackward(TinkerProto.write(TWO_DATUMS));
        assertEquals("ArrayRecord", read.lossFnOutputType(), "the SDK keeps what follows the last colon");
        assertEquals(TWO_DATUMS.lossFnOutputs().get(1), read.lossFnOutputs().get(1));
        assertEquals(Tensor.Floats.of(), read.lossFnOutputs().get(0).get("elementwise_loss"));
    }

    @Test
    void noDatumsIsNoRecord() throws InvalidProtocolBufferException {
        ForwardBackwardOutput none = new ForwardBackwardOutput("ArrayRecord", List.of(), Map.of("loss:sum", 0.0));
        assertEquals(0, TinkerPublic.ForwardBackwardOutput.parseFrom(TinkerProto.write(none)).getLossFnOutputsCount());
        assertEquals(none, SdkResponses.forwardBackward(TinkerProto.write(none)));
    }

    @Test
    void refusesToBatchDatumsThatDisagreeOnAFieldsKindOrTrailingShape() {
        assertThrows(IllegalArgumentException.class, () -> TinkerProto.write(new ForwardBackwardOutput("A", List.of(
                Map.of("x", Tensor.Floats.of(1f)), Map.of("x", Tensor.Ints.of(1))), Map.of())));
        assertThrows(IllegalArgumentException.class, () -> TinkerProto.write(new ForwardBackwardOutput("A", List.of(
                Map.of("x", Tensor.Floats.of(1f, 2f)), Map.of("x", new Tensor.Floats(new float[2], new int[] {1, 2}))),
                Map.of())));
    }

    @Test
    void writesASampleAsInt32TokensAndFloat32Logprobs() throws InvalidProtocolBufferException {
        SampleOutput sample = new SampleOutput(List.of(
                new SampleOutput.Sequence(new int[] {5, 6}, new float[] {-0.25f, -1.5f}, SampleOutput.StopReason.STOP),
                new SampleOutput.Sequence(new int[] {7}, new float[] {-3f}, SampleOutput.StopReason.LENGTH)),
                new float[] {Float.NaN, -2f, -4f},
                List.of(List.of(), List.of(new TokenLogprob(9, -0.1f), new TokenLogprob(0, -2.5f)),
                        List.of(new TokenLogprob(3, -0.2f))), 2);
        TinkerPublic.SampleResponse proto = TinkerPublic.SampleResponse.parseFrom(TinkerProto.write(sample));

        assertEquals(TinkerPublic.StopReason.STOP_REASON_STOP, proto.getSequences(0).getStopReason());
        assertEquals(TinkerPublic.StopReason.STOP_REASON_LENGTH, proto.getSequences(1).getStopReason());
        assertArrayEquals(new int[] {5, 6}, ints(proto.getSequences(0).getTokens().toByteArray()));
        assertArrayEquals(new float[] {-0.25f, -1.5f}, floats(proto.getSequences(0).getLogprobs().toByteArray()));
        assertTrue(Float.isNaN(floats(proto.getPromptLogprobs().toByteArray())[0]));
        assertEquals(2, proto.getPromptCacheHitTokens());
        TinkerPublic.TopkPromptLogprobs topk = proto.getTopkPromptLogprobs();
        assertEquals(2, topk.getK());
        assertEquals(3, topk.getPromptLength());
        assertArrayEquals(new int[] {0, 0, 9, 0, 3, 0}, ints(topk.getTokenIds().toByteArray()));
        assertArrayEquals(new float[] {-99999f, -99999f, -0.1f, -2.5f, -0.2f, -99999f},
                floats(topk.getLogprobs().toByteArray()));

        SdkResponses.Sample read = SdkResponses.sample(TinkerProto.write(sample));
        assertEquals(List.of(new SdkResponses.Sequence("stop", List.of(5, 6), List.of(-0.25f, -1.5f)),
                new SdkResponses.Sequence("length", List.of(7), List.of(-3f))), read.sequences());
        assertEquals(Arrays.asList(null, -2f, -4f), read.promptLogprobs());
        assertEquals(Arrays.asList(null, List.of(new TokenLogprob(9, -0.1f), new TokenLogprob(0, -2.5f)),
                List.of(new TokenLogprob(3, -0.2f))), read.topk());
    }

    @Test
    void leavesOutPromptLogprobsNobodyAskedFor() throws InvalidProtocolBufferException {
        SampleOutput plain = new SampleOutput(List.of(new SampleOutput.Sequence(new int[] {1}, new float[] {-1f},
                SampleOutput.StopReason.LENGTH)), new float[0], List.of(), 0);
        TinkerPublic.SampleResponse proto = TinkerPublic.SampleResponse.parseFrom(TinkerProto.write(plain));
        assertTrue(!proto.hasPromptLogprobs() && !proto.hasTopkPromptLogprobs());
        assertTrue(proto.getSequences(0).hasLogprobs(), "sampled tokens' logprobs are always sent");
    }

    @Test
    void aPromptWhoseTopkRowsAreAllEmptyKeepsItsLength() throws InvalidProtocolBufferException {
        SampleOutput sample = new SampleOutput(List.of(), new float[] {Float.NaN},
                List.of(List.of()), 0);
        TinkerPublic.TopkPromptLogprobs topk = TinkerPublic.SampleResponse.parseFrom(TinkerProto.write(sample))
                .getTopkPromptLogprobs();
        assertEquals(1, topk.getK());
        assertEquals(1, topk.getPromptLength());
        assertEquals(Arrays.asList((Object) null), SdkResponses.sample(TinkerProto.write(sample)).topk());
    }

    @Test
    void namesProtobufInEitherHeader() {
        assertTrue(TinkerProto.namedIn("application/x-protobuf"));
        assertTrue(TinkerProto.namedIn("application/json, Application/X-Protobuf;q=0.9"));
        assertTrue(!TinkerProto.namedIn("application/json") && !TinkerProto.namedIn(null));
    }

    private static ByteBuffer le(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static long[] longs(byte[] bytes) {
        long[] out = new long[bytes.length / 8];
        le(bytes).asLongBuffer().get(out);
        return out;
    }

    private static int[] ints(byte[] bytes) {
        int[] out = new int[bytes.length / 4];
        le(bytes).asIntBuffer().get(out);
        return out;
    }

    private static float[] floats(byte[] bytes) {
        float[] out = new float[bytes.length / 4];
        le(bytes).asFloatBuffer().get(out);
        return out;
    }
}
