package dev.crucible.application.inference.serving;

import dev.crucible.application.model.AdapterCheck;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.LoraAdapter;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Loads the adapter into the runner of its base model and frees it again: what fails there would fail when the
 * adapter is served. The engine's message names the folder it read; that server path is cut out of the answer.
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
        try (LoraAdapter adapter = model.get().runner().loadAdapter(folder)) {
            return Optional.empty();
        } catch (EngineException e) {
            String message = e.getMessage() == null ? e.reason().toString() : e.getMessage();
            String cut = message.replace(folder.toAbsolutePath().toString(), "").replace(folder.toString(), "");
            return Optional.of(cut.replaceFirst("^cannot load adapter\\s*:\\s*", ""));
        }
    }
}
