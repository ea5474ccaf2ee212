package dev.crucible.adapters.http.tinker;

import dev.crucible.application.primitives.OperationResult;
import dev.crucible.application.primitives.OperationState;
import dev.crucible.application.primitives.SampleOutput;
import dev.crucible.application.primitives.StoredOperation;
import dev.crucible.application.primitives.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tinker's JSON answers to {@code retrieve_future}: a finished operation's result in its route's response shape, a
 * failure as {@code {"error", "category"}} (the SDK's {@code RequestFailedError}), a pending one as
 * {@code try_again}. A NaN (no value at a position) is written as null.
 */
final class TinkerReplies {

    private TinkerReplies() {
    }

    static Map<String, Object> future(StoredOperation op) {
        return switch (op.state()) {
            case OperationState.Pending p -> ordered("type", "try_again", "request_id",
                    op.operation().requestId().toString(), "queue_state", "active");
            case OperationState.Failed f -> ordered("error", f.message(), "category", f.category().wireName());
            case OperationState.Done d -> result(d.result());
        };
    }

    static Map<String, Object> result(OperationResult result) {
        return switch (result) {
            case OperationResult.ModelCreated r -> ordered("model_id", r.run().toString(), "type", "create_model");
            case OperationResult.Unloaded r -> ordered("model_id", r.run().toString(), "type", "unload_model");
            case OperationResult.OptimStep r -> ordered("metrics", r.metrics(), "type", "optim_step");
            case OperationResult.WeightsSaved r -> ordered("path", r.path(), "type", "save_weights");
            case OperationResult.WeightsLoaded r -> ordered("path", r.path(), "type", "load_weights");
            case OperationResult.SamplerWeightsSaved r -> ordered("path", r.path().orElse(null),
                    "sampling_session_id", r.samplingSessionId().orElse(null), "type", "save_weights_for_sampler");
            case OperationResult.ForwardBackward r -> ordered("loss_fn_output_type", r.output().lossFnOutputType(),
                    "loss_fn_outputs", r.output().lossFnOutputs().stream().map(TinkerReplies::tensors).toList(),
                    "metrics", r.output().metrics());
            case OperationResult.Sampled r -> sample(r.output());
        };
    }

    private static Map<String, Object> sample(SampleOutput out) {
        Map<String, Object> body = ordered("sequences", out.sequences().stream().map(s -> ordered("tokens",
                s.tokens(), "logprobs", floats(s.logprobs()), "stop_reason",
                s.stopReason().name().toLowerCase(java.util.Locale.ROOT))).toList());
        if (out.promptLogprobs().length > 0) {
            body.put("prompt_logprobs", floats(out.promptLogprobs()));
        }
        if (!out.topkPromptLogprobs().isEmpty()) {
            body.put("topk_prompt_logprobs", out.topkPromptLogprobs().stream().map(row -> row.isEmpty() ? null
                    : row.stream().map(t -> List.<Object>of(t.token(), t.logprob())).toList()).toList());
        }
        body.put("prompt_cache_hit_tokens", out.promptCacheHitTokens());
        body.put("type", "sample");
        return body;
    }

    private static Map<String, Object> tensors(Map<String, Tensor> named) {
        Map<String, Object> out = new LinkedHashMap<>();
        named.forEach((name, tensor) -> out.put(name, switch (tensor) {
            case Tensor.Floats f -> ordered("data", floats(f.values()), "dtype", "float32", "shape", f.shape());
            case Tensor.Ints i -> ordered("data", i.values(), "dtype", "int64", "shape", i.shape());
        }));
        return out;
    }

    private static List<Float> floats(float[] values) {
        List<Float> out = new ArrayList<>(values.length);
        for (float v : values) {
            out.add(Float.isNaN(v) ? null : v);
        }
        return out;
    }

    /** A map of {@code keyValues} in their order; a null value is left out (the SDK sends and expects exclude_none). */
    static Map<String, Object> ordered(Object... keyValues) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            if (keyValues[i + 1] != null) {
                out.put((String) keyValues[i], keyValues[i + 1]);
            }
        }
        return out;
    }
}
