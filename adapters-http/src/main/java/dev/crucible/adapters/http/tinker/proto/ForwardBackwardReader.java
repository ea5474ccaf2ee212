package dev.crucible.adapters.http.tinker.proto;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.crucible.adapters.http.tinker.proto.wire.TinkerPublic;
import dev.crucible.application.primitives.Datum;
import dev.crucible.application.primitives.ForwardBackwardInput;
import dev.crucible.application.primitives.Tensor;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.RefusalException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a protobuf {@code ForwardBackwardRequest} body. Text chunks' int32 tokens are concatenated into the model
 * input; image and dmel chunks are refused (the engines read text only), and so is every tensor {@link TensorReader}
 * cannot read. Each refusal names the field by its path in the request ({@code data[3].model_input[0]}).
 */
final class ForwardBackwardReader {

    private final ProtoLimits limits;
    private final TensorReader tensors;

    ForwardBackwardReader(ProtoLimits limits) {
        this.limits = limits;
        this.tensors = new TensorReader(limits);
    }

    Outcome<ForwardBackwardRequest> read(byte[] body) {
        TinkerPublic.ForwardBackwardRequest request;
        try {
            request = TinkerPublic.ForwardBackwardRequest.parseFrom(body);
        } catch (InvalidProtocolBufferException e) {
            return Outcome.refused(Refusal.invalid("body", "body is not a protobuf ForwardBackwardRequest: "
                    + e.getMessage()));
        }
        try {
            return Outcome.done(new ForwardBackwardRequest(request.getModelId(), request.getSeqId(),
                    new ForwardBackwardInput(data(request.getDataList()), request.getLossFn(),
                            request.getLossFnConfigMap(), request.getForwardOnly())));
        } catch (RefusalException refused) {
            return Outcome.refused(refused.refusal());
        }
    }

    private List<Datum> data(List<TinkerPublic.Datum> data) {
        if (data.size() > limits.maxDatums()) {
            throw TensorReader.tooLarge("data", "data holds " + data.size() + " datums, more than the "
                    + limits.maxDatums() + " one call may hold");
        }
        List<Datum> read = new ArrayList<>(data.size());
        for (int i = 0; i < data.size(); i++) {
            read.add(datum(data.get(i), "data[" + i + "]"));
        }
        return read;
    }

    private Datum datum(TinkerPublic.Datum datum, String path) {
        Map<String, Tensor> inputs = new LinkedHashMap<>();
        datum.getLossFnInputsMap().forEach((name, tensor) ->
                inputs.put(name, tensors.read(tensor, path + ".loss_fn_inputs." + name)));
        return new Datum(modelInput(datum.getModelInputList(), path + ".model_input"), inputs);
    }

    private int[] modelInput(List<TinkerPublic.Chunk> chunks, String path) {
        List<ByteString> texts = new ArrayList<>(chunks.size());
        long bytes = 0;
        for (int i = 0; i < chunks.size(); i++) {
            String at = path + "[" + i + "]";
            TinkerPublic.Chunk chunk = chunks.get(i);
            ByteString tokens = switch (chunk.getChunkCase()) {
                case ENCODED_TEXT -> chunk.getEncodedText().getTokens();
                case IMAGE, DMEL -> throw RefusalException.invalid(at, at + " is an " + kind(chunk.getChunkCase())
                        + " chunk; Crucible's models read text only, so send encoded_text chunks");
                case CHUNK_NOT_SET -> throw RefusalException.invalid(at, at + " is an empty chunk: set encoded_text");
            };
            if (tokens.size() % Integer.BYTES != 0) {
                throw RefusalException.invalid(at + ".encoded_text.tokens", at + ".encoded_text.tokens holds "
                        + tokens.size() + " bytes, not a whole number of int32 token ids");
            }
            texts.add(tokens);
            bytes += tokens.size();
        }
        if (bytes / Integer.BYTES > limits.maxValuesPerTensor()) {
            throw TensorReader.tooLarge(path, path + " holds " + bytes / Integer.BYTES + " tokens, more than the "
                    + limits.maxValuesPerTensor() + " a datum may hold");
        }
        return LittleEndian.int32s(ByteString.copyFrom(texts));
    }

    private static String kind(TinkerPublic.Chunk.ChunkCase chunk) {
        return chunk == TinkerPublic.Chunk.ChunkCase.IMAGE ? "image" : "audio (dmel)";
    }
}
