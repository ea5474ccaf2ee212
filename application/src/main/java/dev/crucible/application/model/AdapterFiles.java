package dev.crucible.application.model;

import dev.crucible.domain.model.ModelId;
import java.nio.file.Path;
import java.util.Optional;

/** The adapter store on disk: one folder per model, one PEFT adapter per checkpoint step. Thread-safe. */
public interface AdapterFiles {

    /** Removes every adapter file of {@code model}; a model without files is fine. */
    void deleteModel(ModelId model);

    /** The PEFT folder of checkpoint {@code step} of {@code model}; empty when that checkpoint has no adapter files. */
    Optional<Path> stepFolder(ModelId model, int step);

    /** Removes the adapter of checkpoint {@code step} of {@code model}, if it has one. */
    void deleteStep(ModelId model, int step);
}
