package dev.crucible.application.model;

import dev.crucible.domain.model.ModelId;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The adapters of checkpoints, one PEFT folder (with the optimiser state when saved) per checkpoint step, kept where
 * every server finds them (the blob store, {@code application.blob.BlobAdapterFiles}) and handed out as a local folder.
 * Thread-safe.
 */
public interface AdapterFiles {

    /** Removes every adapter file of {@code model}; a model without files is fine. */
    void deleteModel(ModelId model);

    /** The PEFT folder of checkpoint {@code step} of {@code model}; empty when that checkpoint has no adapter files. */
    Optional<Path> stepFolder(ModelId model, int step);

    /**
     * Stores the adapter of checkpoint {@code step} of {@code model}: {@code writer} fills an empty staging folder,
     * whose files then replace the step's in one step, so a reader never sees half an adapter.
     *
     * @throws java.io.UncheckedIOException when the files cannot be written
     */
    void writeStep(ModelId model, int step, Consumer<Path> writer);

    /** Removes the adapter of checkpoint {@code step} of {@code model}, if it has one. */
    void deleteStep(ModelId model, int step);
}
