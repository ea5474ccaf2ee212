package dev.crucible.server.wiring;

import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.application.inference.serving.ServedModelLoader;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.EngineProvider;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.runtime.generation.PrefillBudget;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads the configured base models at start-up into the inference engine {@link Engines} puts first (the
 * next one when an engine refuses a model), each with its own waiting
 * queue of at most {@code crucible.inference.max-waiting-requests} requests, a prefix cache of at most
 * {@code crucible.inference.prefix-cache-tokens} prompt tokens and a batch (and largest {@code n}) of
 * {@code crucible.inference.max-batch-sequences} sequences, a prefill budget per step while others decode
 * ({@code crucible.inference.prefill-step-tokens}, or paced by {@code crucible.inference.prefill-stall-factor}) and
 * its idle memory given back after {@code crucible.inference.release-idle-memory-after}; each can be reloaded the
 * same way when its generation stops.
 */
@Factory
class ServedModelsFactory {

    private static final Logger LOG = LoggerFactory.getLogger(ServedModelsFactory.class);

    @Singleton
    @Bean(preDestroy = "close")
    ServedModels servedModels(CrucibleSettings settings, List<EngineProvider> engines, InferenceSettings inference) {
        Map<String, ModelSpec> specs = ModelSpec.parse(settings.modelSpecs(), settings.modelPrecisions(),
                settings.modelScheduling());
        if (specs.isEmpty()) {
            return new ServedModels(List.of());
        }
        int maxBatchSequences = inference.batchSequences();
        PrefillBudget prefillBudget = inference.prefillBudget();
        List<EngineProvider> order = Engines.inference(engines, settings.inferenceEngine());
        // Training always runs on an engine that can train, whatever serves the model.
        EngineProvider trainingEngine = Engines.training(engines).orElse(null);
        Loader loader = (name, spec) -> {
            long start = System.nanoTime();
            Path path = spec.path();
            ModelFolder folder = read(name, path);
            for (int i = 0; i < order.size(); i++) {
                EngineProvider engine = order.get(i);
                try {
                    ServedModel model = ServedModelLoader.load(name, folder, engine, trainingEngine,
                            inference.maxWaitingRequests(), spec.precision().orElse(null),
                            inference.prefixCacheTokens(), maxBatchSequences, prefillBudget,
                            inference.releaseIdleMemoryAfter())
                            .withScheduling(spec.scheduling());
                    LOG.info("Loaded model {} from {} on {}{} in {} ms", name, path, engine.name(),
                            spec.precision().map(p -> " at " + p.label()).orElse(""),
                            (System.nanoTime() - start) / 1_000_000);
                    return model;
                } catch (EngineException e) {
                    if (i == order.size() - 1) {
                        throw e;
                    }
                    // A typed refusal (an architecture or dtype this engine cannot run): the next engine may.
                    LOG.warn("Engine {} cannot serve model {} ({}); trying {}", engine.name(), name,
                            e.getMessage(), order.get(i + 1).name());
                }
            }
            throw new IllegalStateException("no inference engine for model '" + name + "'");
        };
        List<ServedModel> loaded = new ArrayList<>();
        try {
            specs.forEach((name, spec) -> loaded.add(loader.load(name, spec)));
        } catch (RuntimeException e) {
            loaded.forEach(ServedModel::close);
            throw e;
        }
        // a model whose generation stopped is loaded again as it was first loaded (ModelSupervisor)
        return new ServedModels(loaded, failed -> loader.load(failed.name(), specs.get(failed.name())));
    }

    /** Loads one configured model on the first engine that can serve it. */
    @FunctionalInterface
    private interface Loader {
        ServedModel load(String name, ModelSpec spec);
    }

    private static ModelFolder read(String name, Path path) {
        try {
            return ModelFolder.read(path);
        } catch (IOException e) {
            throw new UncheckedIOException("model '" + name + "': cannot read " + path + ": " + e.getMessage(), e);
        }
    }
}
