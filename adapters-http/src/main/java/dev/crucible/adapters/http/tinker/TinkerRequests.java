package dev.crucible.adapters.http.tinker;

import dev.crucible.adapters.http.idempotency.RequestFingerprint;
import dev.crucible.application.primitives.CreateRunUseCase;
import dev.crucible.application.primitives.LoraSettings;
import dev.crucible.application.primitives.RunCommand;
import dev.crucible.application.primitives.SubmitRunOperationUseCase;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.reading.JsonReader;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Tinker's JSON request bodies as commands, with the defaults the SDK documents ({@code adam_params}: beta1 0.9,
 * beta2 0.95, eps 1e-12, no weight decay, no clipping; {@code lora_config}: rank 32, every part trained). Each
 * command carries the digest of its body, by which an identical retry is recognised.
 */
final class TinkerRequests {

    private TinkerRequests() {
    }

    static CreateRunUseCase.Command createModel(Caller caller, JsonReader in) {
        JsonReader lora = in.object("lora_config").orElse(new JsonReader(java.util.Map.of(), "lora_config"));
        OptionalLong seed = lora.present("seed") ? OptionalLong.of(lora.integer("seed", 0, Integer.MIN_VALUE))
                : OptionalLong.empty();
        LoraSettings settings = new LoraSettings(lora.integer("rank", 32, 1), lora.bool("train_unembed", true),
                lora.bool("train_mlp", true), lora.bool("train_attn", true), seed);
        Optional<UUID> session = session(in);
        OptionalLong modelSeq = in.present("model_seq_id") ? OptionalLong.of(in.integer("model_seq_id", 0, 0))
                : OptionalLong.empty();
        return new CreateRunUseCase.Command(caller, session, modelSeq, in.requireString("base_model"), settings,
                digest(in));
    }

    static SubmitRunOperationUseCase.Command sequenced(Caller caller, JsonReader in, RunCommand command) {
        return new SubmitRunOperationUseCase.Command(caller, in.requireString("model_id"), seqId(in), command,
                digest(in));
    }

    static RunCommand.OptimStep optimStep(JsonReader in) {
        JsonReader adam = in.requireObject("adam_params");
        double lr = adam.number("learning_rate", 1e-4, 0, 1e6);
        double beta1 = below1(adam, "beta1", 0.9);
        double beta2 = below1(adam, "beta2", 0.95);
        double eps = adam.positive("eps", 1e-12);
        double decay = adam.number("weight_decay", 0.0, 0, 1e6);
        double clip = adam.number("grad_clip_norm", 0.0, 0, Double.MAX_VALUE);
        return new RunCommand.OptimStep(lr, beta1, beta2, eps, decay, clip);
    }

    static RunCommand.ForwardBackward forwardBackward(JsonReader in, boolean forwardOnly) {
        String key = forwardOnly ? "forward_input" : "forward_backward_input";
        return new RunCommand.ForwardBackward(DatumJson.input(in.requireObject(key), forwardOnly));
    }

    private static double below1(JsonReader in, String key, double fallback) {
        double v = in.number(key, fallback, 0, 1);
        if (v >= 1) {
            throw in.reject(key, "must be in [0, 1), got " + v);
        }
        return v;
    }

    private static long seqId(JsonReader in) {
        if (!in.present("seq_id")) {
            throw in.missing("seq_id");
        }
        return in.integer("seq_id", 0, 0);
    }

    /** The request's {@code session_id}, when it has one: an id this server gave out. */
    static Optional<UUID> session(JsonReader in) {
        return in.string("session_id").map(value -> {
            try {
                return UUID.fromString(value);
            } catch (IllegalArgumentException e) {
                throw in.reject("session_id", "must be an id this server gave out, got '" + value + "'");
            }
        });
    }

    static String digest(JsonReader in) {
        return RequestFingerprint.of(in.raw());
    }

    static RunCommand.SaveWeights saveWeights(JsonReader in) {
        return new RunCommand.SaveWeights(name(in, in.requireString("path")));
    }

    static RunCommand.LoadWeights loadWeights(JsonReader in) {
        return new RunCommand.LoadWeights(in.requireString("path"), in.bool("optimizer", false));
    }

    static RunCommand.SaveForSampler saveForSampler(JsonReader in) {
        Optional<String> name = in.string("path").map(path -> name(in, path));
        OptionalLong sampling = in.present("sampling_session_seq_id")
                ? OptionalLong.of(in.integer("sampling_session_seq_id", 0, 0)) : OptionalLong.empty();
        if (name.isEmpty() && sampling.isEmpty()) {
            throw in.reject("path", "is required unless sampling_session_seq_id is given");
        }
        return new RunCommand.SaveForSampler(name, sampling);
    }

    /** A saved state's name: one segment of a tinker:// path. */
    private static String name(JsonReader in, String name) {
        String problem = dev.crucible.domain.tenancy.Names.problem("path", name);
        if (problem != null) {
            throw in.reject("path", problem.substring("path ".length()));
        }
        return name;
    }
}
