package dev.crucible.adapters.persistence.primitives;

import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.application.primitives.ForwardBackwardOutput;
import dev.crucible.application.primitives.OperationResult;
import dev.crucible.application.primitives.SampleOutput;
import dev.crucible.application.primitives.Tensor;
import dev.crucible.domain.model.ModelId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * An operation's result as the {@code result} column's JSON, tagged by {@code type}. This is storage, not the wire:
 * the HTTP adapter encodes results for clients (JSON or protobuf) from the typed value this reads back. A float
 * survives the trip exactly (written as the shortest decimal that reads back as the same float).
 */
final class OperationResultJson {

    private final Json json;

    OperationResultJson(Json json) {
        this.json = json;
    }

    String write(OperationResult result) {
        Map<String, Object> out = new LinkedHashMap<>();
        switch (result) {
            case OperationResult.ModelCreated r -> put(out, "model_created", "run", r.run().toString());
            case OperationResult.Unloaded r -> put(out, "unloaded", "run", r.run().toString());
            case OperationResult.WeightsSaved r -> put(out, "weights_saved", "path", r.path());
            case OperationResult.WeightsLoaded r -> put(out, "weights_loaded", "path", r.path());
            case OperationResult.OptimStep r -> put(out, "optim_step", "metrics", r.metrics());
            case OperationResult.SamplerWeightsSaved r -> {
                put(out, "sampler_weights_saved", "path", r.path().orElse(null));
                out.put("sampling_session_id", r.samplingSessionId().orElse(null));
            }
            case OperationResult.ForwardBackward r -> {
                put(out, "forward_backward", "output_type", r.output().lossFnOutputType());
                out.put("outputs", r.output().lossFnOutputs().stream().map(OperationResultJson::tensors).toList());
                out.put("metrics", r.output().metrics());
            }
            case OperationResult.Sampled r -> {
                put(out, "sampled", "sequences", r.output().sequences().stream().map(s -> Map.of("tokens",
                        s.tokens(), "logprobs", floatList(s.logprobs()), "stop_reason", s.stopReason().name())).toList());
                out.put("prompt_logprobs", floatList(r.output().promptLogprobs()));
                out.put("topk_prompt_logprobs", r.output().topkPromptLogprobs().stream().map(row -> row.stream()
                        .map(t -> List.of(t.token(), t.logprob())).toList()).toList());
                out.put("prompt_cache_hit_tokens", r.output().promptCacheHitTokens());
            }
        }
        return json.write(out);
    }

    OperationResult read(String text) {
        Map<String, Object> in = json.readObject(text);
        return switch ((String) in.get("type")) {
            case "model_created" -> new OperationResult.ModelCreated(model(in.get("run")));
            case "unloaded" -> new OperationResult.Unloaded(model(in.get("run")));
            case "weights_saved" -> new OperationResult.WeightsSaved((String) in.get("path"));
            case "weights_loaded" -> new OperationResult.WeightsLoaded((String) in.get("path"));
            case "optim_step" -> new OperationResult.OptimStep(doubles(in.get("metrics")));
            case "sampler_weights_saved" -> new OperationResult.SamplerWeightsSaved(
                    Optional.ofNullable((String) in.get("path")),
                    Optional.ofNullable((String) in.get("sampling_session_id")));
            case "forward_backward" -> new OperationResult.ForwardBackward(new ForwardBackwardOutput(
                    (String) in.get("output_type"), list(in.get("outputs")).stream()
                            .map(o -> readTensors(object(o))).toList(), doubles(in.get("metrics"))));
            case "sampled" -> new OperationResult.Sampled(new SampleOutput(list(in.get("sequences")).stream()
                    .map(s -> object(s)).map(s -> new SampleOutput.Sequence(ints(s.get("tokens")),
                            floats(s.get("logprobs")), SampleOutput.StopReason.valueOf((String) s.get("stop_reason"))))
                    .toList(), floats(in.get("prompt_logprobs")), list(in.get("topk_prompt_logprobs")).stream()
                    .map(row -> list(row).stream().map(cell -> new SampleOutput.TokenLogprob(
                            ((Number) list(cell).get(0)).intValue(), ((Number) list(cell).get(1)).floatValue()))
                            .toList()).toList(), ((Number) in.get("prompt_cache_hit_tokens")).intValue()));
            default -> throw new IllegalStateException("unknown stored result type " + in.get("type"));
        };
    }

    private static void put(Map<String, Object> out, String type, String key, Object value) {
        out.put("type", type);
        out.put(key, value);
    }

    static Map<String, Object> tensors(Map<String, Tensor> named) {
        Map<String, Object> out = new LinkedHashMap<>();
        named.forEach((name, tensor) -> out.put(name, switch (tensor) {
            case Tensor.Floats f -> Map.of("dtype", "float32", "data", floatList(f.values()), "shape", f.shape());
            case Tensor.Ints i -> Map.of("dtype", "int64", "data", i.values(), "shape", i.shape());
        }));
        return out;
    }

    static Map<String, Tensor> readTensors(Map<String, Object> in) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        in.forEach((name, value) -> {
            Map<String, Object> t = object(value);
            int[] shape = ints(t.get("shape"));
            List<Object> data = list(t.get("data"));
            if ("int64".equals(t.get("dtype"))) {
                out.put(name, new Tensor.Ints(data.stream().mapToLong(v -> ((Number) v).longValue()).toArray(), shape));
            } else {
                out.put(name, new Tensor.Floats(floats(data), shape));
            }
        });
        return out;
    }

    private static ModelId model(Object value) {
        return new ModelId(UUID.fromString((String) value));
    }

    static Map<String, Double> doubles(Object value) {
        Map<String, Double> out = new LinkedHashMap<>();
        object(value).forEach((k, v) -> out.put(k, ((Number) v).doubleValue()));
        return out;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object value) {
        return value == null ? new ArrayList<>() : (List<Object>) value;
    }

    static int[] ints(Object value) {
        return list(value).stream().mapToInt(v -> ((Number) v).intValue()).toArray();
    }

    static List<Float> floatList(float[] values) {
        List<Float> out = new ArrayList<>(values.length);
        for (float v : values) {
            out.add(Float.isNaN(v) ? null : v);
        }
        return out;
    }

    static float[] floats(Object value) {
        List<Object> values = list(value);
        float[] out = new float[values.size()];
        for (int i = 0; i < out.length; i++) {
            Object v = values.get(i);
            // NaN (no value at a position) is stored as null: JSON has no NaN
            out[i] = v == null ? Float.NaN : ((Number) v).floatValue();
        }
        return out;
    }
}
