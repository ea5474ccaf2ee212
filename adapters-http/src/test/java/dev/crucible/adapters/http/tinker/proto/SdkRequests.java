package dev.crucible.adapters.http.tinker.proto;

import com.google.protobuf.ByteString;
import dev.crucible.adapters.http.tinker.proto.wire.TinkerPublic;
import dev.crucible.application.primitives.Datum;
import dev.crucible.application.primitives.ForwardBackwardInput;
import dev.crucible.application.primitives.Tensor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * What the SDK 0.25's {@code proto/request_conv.py} sends, written here independently of the code under test: the model
 * input as one int32 text chunk, each loss input dense {@code float32} or {@code int64} with its shape, NumPy's
 * little-endian {@code tobytes()}.
 */
public final class SdkRequests {

    private SdkRequests() {
    }

    public static TinkerPublic.ForwardBackwardRequest.Builder request(String modelId, int seqId,
            ForwardBackwardInput input) {
        TinkerPublic.ForwardBackwardRequest.Builder request = TinkerPublic.ForwardBackwardRequest.newBuilder()
                .setModelId(modelId).setSeqId(seqId).setLossFn(input.lossFn()).putAllLossFnConfig(input.lossFnConfig())
                .setForwardOnly(input.forwardOnly());
        input.data().forEach(datum -> request.addData(datum(datum)));
        return request;
    }

    public static TinkerPublic.Datum.Builder datum(Datum datum) {
        TinkerPublic.Datum.Builder out = TinkerPublic.Datum.newBuilder().addModelInput(text(datum.modelInput()));
        datum.lossFnInputs().forEach((name, tensor) -> out.putLossFnInputs(name, tensor(tensor).build()));
        return out;
    }

    public static TinkerPublic.Chunk text(int... tokens) {
        ByteBuffer bytes = le(tokens.length * 4);
        Arrays.stream(tokens).forEach(bytes::putInt);
        return TinkerPublic.Chunk.newBuilder().setEncodedText(TinkerPublic.EncodedTextChunk.newBuilder()
                .setTokens(ByteString.copyFrom(bytes.array()))).build();
    }

    public static TinkerPublic.Tensor.Builder tensor(Tensor tensor) {
        TinkerPublic.Tensor.Builder out = TinkerPublic.Tensor.newBuilder();
        Arrays.stream(tensor.shape()).forEach(out::addShape);
        switch (tensor) {
            case Tensor.Floats f -> {
                ByteBuffer bytes = le(f.size() * 4);
                for (float v : f.values()) {
                    bytes.putFloat(v);
                }
                out.setDtype(TinkerPublic.DType.DTYPE_FLOAT32).setDense(ByteString.copyFrom(bytes.array()));
            }
            case Tensor.Ints i -> {
                ByteBuffer bytes = le(i.size() * 8);
                Arrays.stream(i.values()).forEach(bytes::putLong);
                out.setDtype(TinkerPublic.DType.DTYPE_INT64).setDense(ByteString.copyFrom(bytes.array()));
            }
        }
        return out;
    }

    public static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }
}
