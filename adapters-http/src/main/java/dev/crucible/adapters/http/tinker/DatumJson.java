package dev.crucible.adapters.http.tinker;

import dev.crucible.application.primitives.Datum;
import dev.crucible.application.primitives.ForwardBackwardInput;
import dev.crucible.application.primitives.Tensor;
import dev.crucible.kernel.reading.JsonReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Tinker's JSON {@code ForwardBackwardInput}: datums of a {@code model_input} (text chunks, concatenated) and
 * {@code loss_fn_inputs} of dense {@code TensorData}. A tensor without a {@code dtype} takes its key's (the SDK's
 * coercion: {@code target_tokens} int64, the others float32). Image chunks and sparse tensors are refused by name.
 */
final class DatumJson {

    private static final String TARGETS = "target_tokens";

    private DatumJson() {
    }

    static ForwardBackwardInput input(JsonReader in, boolean forwardOnly) {
        List<Datum> data = new ArrayList<>();
        in.requireArray("data");
        for (JsonReader datum : in.objects("data")) {
            data.add(datum(datum));
        }
        Map<String, Double> config = new LinkedHashMap<>();
        in.object("loss_fn_config").ifPresent(c -> c.raw().keySet().forEach(key -> config.put(key,
                c.number(key).orElseThrow(() -> c.reject(key, "must be a number")))));
        String loss = in.requireString("loss_fn");
        return new ForwardBackwardInput(data, loss, config, forwardOnly);
    }

    private static Datum datum(JsonReader datum) {
        int[] tokens = modelInput(datum.requireObject("model_input"));
        Map<String, Tensor> inputs = new LinkedHashMap<>();
        JsonReader named = datum.requireObject("loss_fn_inputs");
        for (String key : named.raw().keySet()) {
            inputs.put(key, tensor(named.requireObject(key), key.equals(TARGETS)));
        }
        return new Datum(tokens, inputs);
    }

    static int[] modelInput(JsonReader input) {
        List<Integer> tokens = new ArrayList<>();
        List<JsonReader> chunks = input.objects("chunks");
        input.requireArray("chunks");
        for (JsonReader chunk : chunks) {
            String type = chunk.string("type", "encoded_text");
            if (!type.equals("encoded_text")) {
                throw chunk.reject("type", "only encoded_text chunks are supported, got '" + type + "'");
            }
            List<Object> ids = chunk.requireArray("tokens");
            for (int i = 0; i < ids.size(); i++) {
                tokens.add((int) integer(chunk, "tokens", i, ids.get(i), Integer.MIN_VALUE, Integer.MAX_VALUE));
            }
        }
        return tokens.stream().mapToInt(Integer::intValue).toArray();
    }

    private static Tensor tensor(JsonReader t, boolean tokens) {
        for (String sparse : List.of("sparse_crow_indices", "sparse_col_indices")) {
            if (t.present(sparse)) {
                throw t.reject(sparse, "sparse tensors are not supported; send the dense form");
            }
        }
        String dtype = t.oneOf("dtype", tokens ? "int64" : "float32", java.util.Set.of("int64", "float32"));
        List<Object> data = t.requireArray("data");
        int[] shape = t.array("shape").map(s -> {
            int[] dims = new int[s.size()];
            for (int i = 0; i < dims.length; i++) {
                dims[i] = (int) integer(t, "shape", i, s.get(i), 0, Integer.MAX_VALUE);
            }
            return dims;
        }).orElse(new int[] {data.size()});
        long product = 1;
        for (int dim : shape) {
            product = Math.min(product * dim, Integer.MAX_VALUE + 1L);
        }
        if (shape.length == 0 || product != data.size()) {
            throw t.reject("shape", "shape must hold as many values as data (" + data.size() + "), got "
                    + java.util.Arrays.toString(shape));
        }
        if (dtype.equals("int64")) {
            long[] values = new long[data.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = integer(t, "data", i, data.get(i), Long.MIN_VALUE, Long.MAX_VALUE);
            }
            return new Tensor.Ints(values, shape);
        }
        float[] values = new float[data.size()];
        for (int i = 0; i < values.length; i++) {
            if (!(data.get(i) instanceof Number n)) {
                throw JsonReader.fail(t.path("data") + "[" + i + "]", t.path("data") + "[" + i + "] must be a number, got "
                        + JsonReader.describe(data.get(i)));
            }
            values[i] = n.floatValue();
        }
        return new Tensor.Floats(values, shape);
    }

    private static long integer(JsonReader in, String key, int index, Object value, long min, long max) {
        String at = in.path(key) + "[" + index + "]";
        if (!(value instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())
                || n.doubleValue() < min || n.doubleValue() > max) {
            throw JsonReader.fail(at, at + " must be an integer in [" + min + ", " + max + "], got "
                    + JsonReader.describe(value));
        }
        return n.longValue();
    }
}
