package dev.crucible.application.model;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import java.nio.file.Path;
import java.util.Objects;

/** The PEFT adapter of one checkpoint of the caller's model, to take to other tools. */
public interface ReadAdapterUseCase {

    record Command(Caller caller, ModelId modelId, int step) {
        public Command {
            Objects.requireNonNull(caller, "caller");
            Objects.requireNonNull(modelId, "modelId");
        }
    }

    /**
     * @param folder the checkpoint's PEFT folder ({@link ImportAdapterService#FILES})
     * @param name a file name for it: the model's name and the step, e.g. {@code agent-step-3}
     */
    record Adapter(Path folder, String name) {
    }

    /**
     * The adapter; refused as not found for another entity's model, a step the model does not have, and step 0
     * (the base model itself, which has no adapter files).
     */
    Outcome<Adapter> read(Command command);
}
