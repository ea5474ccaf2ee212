package dev.crucible.adapters.persistence.primitives;

import static dev.crucible.adapters.persistence.primitives.OperationResultJson.doubles;
import static dev.crucible.adapters.persistence.primitives.OperationResultJson.ints;
import static dev.crucible.adapters.persistence.primitives.OperationResultJson.list;
import static dev.crucible.adapters.persistence.primitives.OperationResultJson.object;
import static dev.crucible.adapters.persistence.primitives.OperationResultJson.readTensors;
import static dev.crucible.adapters.persistence.primitives.OperationResultJson.tensors;

import dev.crucible.adapters.persistence.sql.Json;
import dev.crucible.application.primitives.Datum;
import dev.crucible.application.primitives.ForwardBackwardInput;
import dev.crucible.application.primitives.RunCommand;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A queued operation's command as the {@code command} column's JSON, tagged by {@code type}: storage between the api
 * process that accepted it and the worker that runs it, not the wire. Numbers survive the trip exactly.
 */
final class RunCommandJson {

    private final Json json;

    RunCommandJson(Json json) {
        this.json = json;
    }

    String write(RunCommand command) {
        Map<String, Object> out = new LinkedHashMap<>();
        switch (command) {
            case RunCommand.ForwardBackward fb -> {
                out.put("type", "forward_backward");
                out.put("loss_fn", fb.input().lossFn());
                out.put("loss_fn_config", fb.input().lossFnConfig());
                out.put("forward_only", fb.input().forwardOnly());
                out.put("data", fb.input().data().stream().map(d -> Map.of("model_input", d.modelInput(),
                        "loss_fn_inputs", tensors(d.lossFnInputs()))).toList());
            }
            case RunCommand.OptimStep s -> {
                out.put("type", "optim_step");
                out.put("adam", Map.of("learning_rate", s.learningRate(), "beta1", s.beta1(), "beta2", s.beta2(),
                        "eps", s.eps(), "weight_decay", s.weightDecay(), "grad_clip_norm", s.gradClipNorm()));
            }
            case RunCommand.SaveWeights s -> {
                out.put("type", "save_weights");
                out.put("name", s.name());
            }
            case RunCommand.LoadWeights l -> {
                out.put("type", "load_weights");
                out.put("path", l.path());
                out.put("optimizer", l.optimizer());
            }
            case RunCommand.SaveForSampler s -> {
                out.put("type", "save_weights_for_sampler");
                out.put("name", s.name().orElse(null));
                out.put("sampling_session_seq_id", s.samplingSessionSeqId().isPresent()
                        ? s.samplingSessionSeqId().getAsLong() : null);
            }
            case RunCommand.Unload u -> out.put("type", "unload_model");
        }
        return json.write(out);
    }

    RunCommand read(String text) {
        Map<String, Object> in = json.readObject(text);
        return switch ((String) in.get("type")) {
            case "forward_backward" -> new RunCommand.ForwardBackward(new ForwardBackwardInput(list(in.get("data"))
                    .stream().map(d -> object(d)).map(d -> new Datum(ints(d.get("model_input")),
                            readTensors(object(d.get("loss_fn_inputs"))))).toList(), (String) in.get("loss_fn"),
                    doubles(in.get("loss_fn_config")), (Boolean) in.get("forward_only")));
            case "optim_step" -> {
                Map<String, Double> adam = doubles(in.get("adam"));
                yield new RunCommand.OptimStep(adam.get("learning_rate"), adam.get("beta1"), adam.get("beta2"),
                        adam.get("eps"), adam.get("weight_decay"), adam.get("grad_clip_norm"));
            }
            case "save_weights" -> new RunCommand.SaveWeights((String) in.get("name"));
            case "load_weights" -> new RunCommand.LoadWeights((String) in.get("path"), (Boolean) in.get("optimizer"));
            case "save_weights_for_sampler" -> new RunCommand.SaveForSampler(Optional.ofNullable(
                    (String) in.get("name")), in.get("sampling_session_seq_id") instanceof Number n
                            ? OptionalLong.of(n.longValue()) : OptionalLong.empty());
            case "unload_model" -> new RunCommand.Unload();
            default -> throw new IllegalStateException("unknown stored command type " + in.get("type"));
        };
    }
}
