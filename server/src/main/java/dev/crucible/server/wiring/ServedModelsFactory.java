package dev.crucible.server.wiring;

import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.application.inference.serving.ServedModelLoader;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineProvider;
import dev.crucible.hf.folder.ModelFolder;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the configured base models into the first installed inference engine at start-up, each with its own waiting
 * queue of at most {@code crucible.inference.max-waiting-requests} requests.
 */
@Factory
class ServedModelsFactory {

    private static final Logger LOG = LoggerFactory.getLogger(ServedModelsFactory.class);

    @Singleton
    @Bean(preDestroy = "close")
    ServedModels servedModels(CrucibleSettings settings, List<EngineProvider> engines,
            @Value("${crucible.inference.max-waiting-requests:128}") int maxWaitingRequests) {
        Map<String, Path> specs = ModelSpecs.parse(settings.modelSpecs() == null ? List.of() : settings.modelSpecs());
        if (specs.isEmpty()) {
            return new ServedModels(List.of());
        }
        // Deterministic, not ServiceLoader order: served models also serve their trained checkpoints as LoRA
        // adapters, so an engine that applies adapters comes first, then by name.
        EngineProvider engine = engines.stream().filter(e -> e.capabilities().contains(Capability.INFERENCE))
                .min(Comparator.comparing((EngineProvider e) -> !e.capabilities().contains(Capability.LORA_INFERENCE))
                        .thenComparing(EngineProvider::name)).orElseThrow(() -> new IllegalStateException(
                        "base models are configured but no installed engine has the INFERENCE capability"));
        List<ServedModel> loaded = new ArrayList<>();
        try {
            specs.forEach((name, path) -> {
                long start = System.nanoTime();
                loaded.add(ServedModelLoader.load(name, read(name, path), engine, maxWaitingRequests));
                LOG.info("Loaded model {} from {} on {} in {} ms", name, path, engine.name(),
                        (System.nanoTime() - start) / 1_000_000);
            });
        } catch (RuntimeException e) {
            loaded.forEach(ServedModel::close);
            throw e;
        }
        return new ServedModels(loaded);
    }

    private static ModelFolder read(String name, Path path) {
        try {
            return ModelFolder.read(path);
        } catch (IOException e) {
            throw new UncheckedIOException("model '" + name + "': cannot read " + path + ": " + e.getMessage(), e);
        }
    }
}
