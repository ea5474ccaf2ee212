package dev.crucible.application.inference.serving;

import dev.crucible.application.model.AdapterCheck;
import dev.crucible.hf.ModelFormatException;
import dev.crucible.hf.peft.LoraWeights;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads the adapter as every engine reads it ({@link LoraWeights}), against its base model's {@code config.json}:
 * what fails there would fail when the adapter is served. Nothing is loaded into an engine, and the answer is the
 * reader's own account of the fault, which names the file, key or tensor and never the folder it read.
 */
public final class ServedAdapterCheck implements AdapterCheck {

    private final ServedModels served;

    public ServedAdapterCheck(ServedModels served) {
        this.served = Objects.requireNonNull(served, "served");
    }

    @Override
    public Optional<String> problem(String baseModel, Path folder) {
        Optional<ServedModel> model = served.find(baseModel);
        if (model.isEmpty()) {
            return Optional.of("base model '" + baseModel + "' is not served here");
        }
        try {
            LoraWeights.read(folder, model.get().config());
            return Optional.empty();
        } catch (ModelFormatException e) {
            // read() prefixes the folder to its cause's message; a cause that is not a format fault is an I/O one
            return Optional.of(e.getCause() instanceof ModelFormatException fault ? fault.getMessage()
                    : "its files cannot be read");
        }
    }
}
