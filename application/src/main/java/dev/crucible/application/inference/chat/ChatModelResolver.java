package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.serving.AdapterSource;
import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.model.ModelStore;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelAddress;
import dev.crucible.domain.tenancy.Caller;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds what a chat request's {@code model} names: a served base model by name, or one of the caller's trained
 * models by address ({@code <scheme>:///<entity>/<project>/<name>[:step<N>|:v<N>|:latest]}); no name means the
 * first served model, as in vLLM. Anything else — including another entity's model — is vLLM's 404.
 */
public final class ChatModelResolver {

    /**
     * The model to run and the name the response reports.
     *
     * @param trained whether a trained model was named (its rollouts must be trainable: see ChatCompletionService)
     * @param adapter the PEFT adapter of the checkpoint, empty for base models and step 0 (the zero adapter)
     */
    public record Resolved(ServedModel base, String responseName, int step, boolean trained,
            Optional<AdapterSource> adapter) {
    }

    private final ServedModels served;
    private final ModelStore models;
    private final CheckpointStore checkpoints;
    private final AdapterFiles adapters;

    public ChatModelResolver(ServedModels served, ModelStore models, CheckpointStore checkpoints,
            AdapterFiles adapters) {
        this.adapters = Objects.requireNonNull(adapters, "adapters");
        this.served = Objects.requireNonNull(served, "served");
        this.models = Objects.requireNonNull(models, "models");
        this.checkpoints = Objects.requireNonNull(checkpoints, "checkpoints");
    }

    public Outcome<Resolved> resolve(Caller caller, Optional<String> requested) {
        String name = requested.filter(n -> !n.isBlank()).orElse("");
        if (name.isEmpty()) {
            return served.defaultModel().<Outcome<Resolved>>map(m -> Outcome.done(new Resolved(m, m.name(), 0, false, Optional.empty())))
                    .orElseGet(() -> missing(name));
        }
        Optional<ServedModel> base = served.find(name);
        if (base.isPresent()) {
            return Outcome.done(new Resolved(base.get(), name, 0, false, Optional.empty()));
        }
        Optional<ModelAddress> address = ModelAddress.parse(name);
        if (address.isEmpty() || !address.get().coordinates().entity().equals(caller.entity())) {
            return missing(name);
        }
        Optional<Model> trained = models.find(address.get().coordinates());
        if (trained.isEmpty()) {
            return missing(name);
        }
        int step = address.get().step().orElse(trained.get().latestStep());
        Optional<ServedModel> over = served.find(trained.get().baseModel());
        if (over.isEmpty() || !checkpoints.steps(trained.get().id()).contains(step)) {
            return missing(name);
        }
        if (step == 0) {
            // Step 0 is the zero adapter: the trained model is its base model, unchanged.
            return Outcome.done(new Resolved(over.get(), name, 0, true, Optional.empty()));
        }
        Optional<Path> folder = adapters.stepFolder(trained.get().id(), step);
        if (folder.isEmpty()) {
            return Outcome.refused(new Refusal(Refusal.Reason.NOT_IMPLEMENTED, "checkpoint step " + step
                    + " of this model has no adapter files to serve", "model"));
        }
        return Outcome.done(new Resolved(over.get(), name, step, true,
                folder.map(f -> new AdapterSource(trained.get().id(), step, f))));
    }

    private static Outcome<Resolved> missing(String name) {
        return Outcome.refused(Refusal.notFound("model", "The model `" + name + "` does not exist."));
    }
}
