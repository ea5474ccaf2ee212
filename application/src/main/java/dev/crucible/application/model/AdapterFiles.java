package dev.crucible.application.model;

import dev.crucible.domain.model.ModelId;

/** The adapter store on disk: one folder per model, one PEFT adapter per checkpoint step. Thread-safe. */
public interface AdapterFiles {

    /** Removes every adapter file of {@code model}; a model without files is fine. */
    void deleteModel(ModelId model);

    /** Removes the adapter of checkpoint {@code step} of {@code model}, if it has one. */
    void deleteStep(ModelId model, int step);
}
