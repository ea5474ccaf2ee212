package dev.crucible.application.model;

import dev.crucible.kernel.invariant.NonNull;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import java.nio.file.Path;

/**
 * Adds a PEFT LoRA adapter trained elsewhere (or downloaded from here) to one of the caller's models as its next
 * checkpoint, which chat completions then serve by the model's name, as they serve a trained step.
 */
public interface ImportAdapterUseCase {

    /** @param folder a folder holding {@code adapter_config.json} and {@code adapter_model.safetensors} */
    record Command(Caller caller, ModelId modelId, Path folder) {
        public Command {
            NonNull.components(Command.class, caller, modelId, folder);
        }
    }

    /**
     * The new checkpoint; refused as not found for another entity's model, as a conflict while one of the model's
     * training jobs is queued or running (it will take the next step), and as invalid ({@code adapter}) when the
     * adapter does not load over the model's base model.
     */
    Outcome<Checkpoint> importAdapter(Command command);
}
