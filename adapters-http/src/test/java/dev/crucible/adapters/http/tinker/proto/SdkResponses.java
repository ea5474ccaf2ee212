package dev.crucible.adapters.http.tinker.proto;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.crucible.adapters.http.tinker.proto.wire.TinkerPublic;
import dev.crucible.application.primitives.ForwardBackwardOutput;
import dev.crucible.application.primitives.SampleOutput;
import dev.crucible.application.primitives.Tensor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The SDK's reading of result bodies, re-implemented here from its {@code proto/response_conv.py} as the reference
 * (section 6.4) describes it, independently of the code under test: the type after the last colon; each batched field
 * sliced by int64 byte offsets divided by the element width, int32 widened to int64 and bfloat16 to float32, a datum's
 * shape {@code [len / prod(trailing)] + trailing}; NaN prompt logprobs read as null; a top-k row whose first cell is
 * {@code (0, -99999.0)} read as null and trailing such cells dropped; empty logprobs read as absent.
 */
public final class SdkResponses {

    private static final float MASK = -99999.0f;

    private SdkResponses() {
    }

    public static ForwardBackwardOutput forwardBackward(byte[] body) throws InvalidProtocolBufferException {
        TinkerPublic.ForwardBackwardOutput proto = TinkerPublic.ForwardBackwardOutput.parseFrom(body);
        String type = proto.getLossFnOutputType();
        List<Map<String, Tensor>> datums = new ArrayList<>();
        for (TinkerPublic.ArrayRecord record : proto.getLossFnOutputsList()) {
            List<Map<String, Tensor>> chunk = new ArrayList<>();
            for (long i = 0; i < record.getNumDatums(); i++) {
                chunk.add(new LinkedHashMap<>());
            }
            record.getFieldsMap().forEach((name, batched) -> {
                List<Tensor> slices = slices(batched);
                for (int i = 0; i < slices.size(); i++) {
                    chunk.get(i).put(name, slices.get(i));
                }
            });
            datums.addAll(chunk);
        }
        return new ForwardBackwardOutput(type.substring(type.lastIndexOf(':') + 1), datums, proto.getMetricsMap());
    }

    private static List<Tensor> slices(TinkerPublic.BatchedTensor batched) {
        int width = switch (batched.getDtype()) {
            case DTYPE_FLOAT32, DTYPE_INT32 -> 4;
            case DTYPE_INT64 -> 8;
            case DTYPE_BFLOAT16 -> 2;
            default -> throw new IllegalArgumentException("Unsupported proto DType value: " + batched.getDtype());
        };
        ByteBuffer offsets = le(batched.getOffsets());
        ByteBuffer data = le(batched.getData());
        long trailing = batched.getTrailingShapeList().stream().mapToLong(Long::longValue).reduce(1, (a, b) -> a * b);
        List<Tensor> out = new ArrayList<>();
        for (int i = 0; i + 1 < batched.getOffsets().size() / 8; i++) {
            int start = (int) (offsets.getLong(i * 8) / width);
            int end = (int) (offsets.getLong(i * 8 + 8) / width);
            int[] shape = new int[1 + batched.getTrailingShapeCount()];
            shape[0] = trailing == 0 ? 0 : (int) ((end - start) / trailing);
            for (int d = 1; d < shape.length; d++) {
                shape[d] = (int) (long) batched.getTrailingShape(d - 1);
            }
            out.add(switch (batched.getDtype()) {
                case DTYPE_FLOAT32, DTYPE_BFLOAT16 -> {
                    float[] values = new float[end - start];
                    for (int j = 0; j < values.length; j++) {
                        values[j] = width == 4 ? data.getFloat((start + j) * 4)
                                : Float.intBitsToFloat((data.getShort((start + j) * 2) & 0xFFFF) << 16);
                    }
                    yield new Tensor.Floats(values, shape);
                }
                default -> {
                    long[] values = new long[end - start];
                    for (int j = 0; j < values.length; j++) {
                        values[j] = width == 8 ? data.getLong((start + j) * 8) : data.getInt((start + j) * 4);
                    }
                    yield new Tensor.Ints(values, shape);
                }
            });
        }
        return out;
    }

    /** A sample as the SDK holds it: null where the reply has no value. */
    public record Sample(List<Sequence> sequences, List<Float> promptLogprobs,
            List<List<SampleOutput.TokenLogprob>> topk, int promptCacheHitTokens) {
    }

    public record Sequence(String stopReason, List<Integer> tokens, List<Float> logprobs) {
    }

    public static Sample sample(byte[] body) throws InvalidProtocolBufferException {
        TinkerPublic.SampleResponse proto = TinkerPublic.SampleResponse.parseFrom(body);
        List<Sequence> sequences = new ArrayList<>();
        for (TinkerPublic.SampledSequence s : proto.getSequencesList()) {
            String reason = switch (s.getStopReasonValue()) {
                case 0 -> "stop";
                case 1 -> "length";
                default -> throw new IllegalArgumentException("Unknown stop_reason enum value");
            };
            sequences.add(new Sequence(reason, ints(s.getTokens()),
                    s.getLogprobs().isEmpty() ? null : floats(s.getLogprobs())));
        }
        List<Float> prompt = null;
        if (!proto.getPromptLogprobs().isEmpty()) {
            prompt = floats(proto.getPromptLogprobs()).stream().map(v -> v.isNaN() ? null : v).toList();
        }
        List<List<SampleOutput.TokenLogprob>> topk = null;
        if (proto.hasTopkPromptLogprobs()) {
            topk = topk(proto.getTopkPromptLogprobs());
        }
        return new Sample(sequences, prompt, topk, proto.getPromptCacheHitTokens());
    }

    private static List<List<SampleOutput.TokenLogprob>> topk(TinkerPublic.TopkPromptLogprobs topk) {
        int n = topk.getPromptLength();
        int k = topk.getK();
        List<List<SampleOutput.TokenLogprob>> rows = new ArrayList<>();
        if (n == 0 || k == 0) {
            return rows;
        }
        List<Integer> ids = ints(topk.getTokenIds());
        List<Float> lps = floats(topk.getLogprobs());
        for (int i = 0; i < n; i++) {
            int start = i * k;
            if (masked(ids, lps, start)) {
                rows.add(null);
                continue;
            }
            int end = start + k;
            while (end > start && masked(ids, lps, end - 1)) {
                end--;
            }
            List<SampleOutput.TokenLogprob> row = new ArrayList<>();
            for (int j = start; j < end; j++) {
                row.add(new SampleOutput.TokenLogprob(ids.get(j), lps.get(j)));
            }
            rows.add(row);
        }
        return rows;
    }

    private static boolean masked(List<Integer> ids, List<Float> lps, int at) {
        return ids.get(at) == 0 && lps.get(at) == MASK;
    }

    private static List<Integer> ints(ByteString bytes) {
        return values(bytes, ByteBuffer::getInt);
    }

    private static List<Float> floats(ByteString bytes) {
        return values(bytes, ByteBuffer::getFloat);
    }

    /** Every whole 4-byte value, as NumPy's {@code frombuffer} reads them. */
    private static <T> List<T> values(ByteString bytes, Function<ByteBuffer, T> next) {
        ByteBuffer in = le(bytes);
        List<T> out = new ArrayList<>();
        while (in.remaining() >= 4) {
            out.add(next.apply(in));
        }
        return out;
    }

    private static ByteBuffer le(ByteString bytes) {
        return ByteBuffer.wrap(bytes.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
    }
}
