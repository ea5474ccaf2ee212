package dev.crucible.adapters.http.tinker.proto;

import com.google.protobuf.ByteString;
import dev.crucible.adapters.http.tinker.proto.wire.TinkerPublic;
import dev.crucible.application.primitives.ForwardBackwardOutput;
import dev.crucible.application.primitives.SampleOutput;
import dev.crucible.application.primitives.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Writes results in the form the SDK's {@code proto/response_conv.py} reads. A {@code forward_backward} result is one
 * {@code ArrayRecord} whose every output field is one {@code BatchedTensor}: all datums' values concatenated, int64
 * byte offsets (one per datum, plus the end), and the dimensions after the first as {@code trailing_shape}. A sample
 * is int32 tokens and float32 logprobs, prompt logprobs with NaN where there is none, and top-k prompt logprobs as two
 * row-major positions-by-k matrices whose empty cells hold {@code (0, -99999.0)}.
 */
final class ResultWriter {

    /** The empty cell of a top-k matrix; a row that starts with one reads as "none". */
    static final float MASK_LOGPROB = -99999.0f;

    private ResultWriter() {
    }

    static byte[] forwardBackward(ForwardBackwardOutput output) {
        TinkerPublic.ForwardBackwardOutput.Builder out = TinkerPublic.ForwardBackwardOutput.newBuilder()
                .setLossFnOutputType(output.lossFnOutputType())
                .putAllMetrics(output.metrics());
        List<Map<String, Tensor>> datums = output.lossFnOutputs();
        if (!datums.isEmpty()) {
            TinkerPublic.ArrayRecord.Builder record = TinkerPublic.ArrayRecord.newBuilder().setNumDatums(datums.size());
            Set<String> names = new LinkedHashSet<>();
            datums.forEach(datum -> names.addAll(datum.keySet()));
            for (String name : names) {
                record.putFields(name, batched(name, datums.stream().map(datum -> datum.get(name)).toList()));
            }
            out.addLossFnOutputs(record);
        }
        return out.build().toByteArray();
    }

    /**
     * One output field of every datum; a datum without it gets an empty slice.
     *
     * @throws IllegalArgumentException where the datums disagree on the field's kind or its trailing dimensions, which
     *                                  one batched tensor cannot say (a bug of the loss that made them)
     */
    private static TinkerPublic.BatchedTensor batched(String name, List<Tensor> tensors) {
        Tensor first = tensors.stream().filter(Objects::nonNull).findFirst().orElseThrow();
        int[] trailing = Arrays.copyOfRange(first.shape(), 1, first.shape().length);
        List<ByteString> slices = new ArrayList<>(tensors.size());
        long[] offsets = new long[tensors.size() + 1];
        for (int i = 0; i < tensors.size(); i++) {
            Tensor tensor = tensors.get(i);
            if (tensor != null && (tensor.getClass() != first.getClass()
                    || !Arrays.equals(trailing, Arrays.copyOfRange(tensor.shape(), 1, tensor.shape().length)))) {
                throw new IllegalArgumentException("output " + name + " of datum " + i + " is " + tensor
                        + ", the first datum's " + first + ": one batched tensor cannot hold both");
            }
            ByteString slice = switch (tensor) {
                case null -> ByteString.EMPTY;
                case Tensor.Floats floats -> LittleEndian.of(floats.values());
                case Tensor.Ints ints -> LittleEndian.of(ints.values());
            };
            slices.add(slice);
            offsets[i + 1] = offsets[i] + slice.size();
        }
        TinkerPublic.BatchedTensor.Builder batched = TinkerPublic.BatchedTensor.newBuilder()
                .setData(ByteString.copyFrom(slices))
                .setOffsets(LittleEndian.of(offsets))
                .setDtype(first instanceof Tensor.Floats ? TinkerPublic.DType.DTYPE_FLOAT32
                        : TinkerPublic.DType.DTYPE_INT64);
        Arrays.stream(trailing).forEach(batched::addTrailingShape);
        return batched.build();
    }

    static byte[] sample(SampleOutput output) {
        TinkerPublic.SampleResponse.Builder out = TinkerPublic.SampleResponse.newBuilder()
                .setPromptCacheHitTokens(output.promptCacheHitTokens());
        for (SampleOutput.Sequence sequence : output.sequences()) {
            out.addSequences(TinkerPublic.SampledSequence.newBuilder()
                    .setStopReason(switch (sequence.stopReason()) {
                        case STOP -> TinkerPublic.StopReason.STOP_REASON_STOP;
                        case LENGTH -> TinkerPublic.StopReason.STOP_REASON_LENGTH;
                    })
                    .setTokens(LittleEndian.of(sequence.tokens()))
                    .setLogprobs(LittleEndian.of(sequence.logprobs())));
        }
        if (output.promptLogprobs().length > 0) {
            out.setPromptLogprobs(LittleEndian.of(output.promptLogprobs()));
        }
        if (!output.topkPromptLogprobs().isEmpty()) {
            out.setTopkPromptLogprobs(topk(output.topkPromptLogprobs()));
        }
        return out.build().toByteArray();
    }

    /** k is the widest row's length (at least 1, so that a prompt of empty rows still says its length). */
    private static TinkerPublic.TopkPromptLogprobs topk(List<List<SampleOutput.TokenLogprob>> rows) {
        int k = Math.max(1, rows.stream().mapToInt(List::size).max().orElse(0));
        int[] tokens = new int[Math.multiplyExact(rows.size(), k)];
        float[] logprobs = new float[tokens.length];
        Arrays.fill(logprobs, MASK_LOGPROB);
        for (int i = 0; i < rows.size(); i++) {
            List<SampleOutput.TokenLogprob> row = rows.get(i);
            for (int j = 0; j < row.size(); j++) {
                tokens[i * k + j] = row.get(j).token();
                logprobs[i * k + j] = row.get(j).logprob();
            }
        }
        return TinkerPublic.TopkPromptLogprobs.newBuilder()
                .setTokenIds(LittleEndian.of(tokens))
                .setLogprobs(LittleEndian.of(logprobs))
                .setK(k)
                .setPromptLength(rows.size())
                .build();
    }
}
