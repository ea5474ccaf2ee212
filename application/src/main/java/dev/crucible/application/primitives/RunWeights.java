package dev.crucible.application.primitives;

import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.domain.model.ModelId;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * A run's saved states, on its worker. Every save is a Crucible checkpoint of the run's model (so a sampler state is
 * served by name through {@code /v1/chat/completions} at once), written by {@code LoraTrainer.save} with the
 * optimiser state beside the adapter; a named save also records its name. A load continues from a saved state's
 * folder, without its optimiser state unless asked, and only as a run's first operation.
 */
record RunWeights(PrimitiveStore store, CheckpointStore checkpoints, AdapterFiles adapters, Clock clock) {

    /** The files of a PEFT adapter; a folder of only these starts a trainer without optimiser state. */
    private static final List<String> ADAPTER_FILES = List.of("adapter_config.json", "adapter_model.safetensors");

    Outcome<OperationResult> save(LiveRun live, String name) {
        return Outcome.done(new OperationResult.WeightsSaved(named(live, TinkerPath.WEIGHTS, name).toString()));
    }

    Outcome<OperationResult> saveForSampler(LiveRun live, Optional<String> name) {
        if (name.isPresent()) {
            return Outcome.done(new OperationResult.SamplerWeightsSaved(Optional.of(named(live,
                    TinkerPath.SAMPLER_WEIGHTS, name.get()).toString()), Optional.empty()));
        }
        int step = checkpoint(live);
        TrainingRun run = live.run();
        SamplingSession sampler = new SamplingSession(UUID.randomUUID(), run.entity(), run.session(),
                run.baseModel(), Optional.of(run.model()), OptionalInt.of(step), Optional.empty(), clock.instant());
        store.insertSampler(sampler);
        return Outcome.done(new OperationResult.SamplerWeightsSaved(Optional.empty(),
                Optional.of(sampler.id().toString())));
    }

    Outcome<OperationResult> load(LiveRun live, String path, boolean optimizer) {
        if (live.started()) {
            return Outcome.refused(Refusal.invalid("seq_id", "load_weights must be a run's first operation; create a "
                    + "model and load into it"));
        }
        Optional<Path> folder = folder(live, path);
        if (folder.isEmpty()) {
            return Outcome.refused(Refusal.notFound("path", "no saved state at '" + path + "'"));
        }
        live.markStarted();
        Path start = optimizer ? folder.get() : adapterOnly(folder.get());
        try {
            live.trainer(Optional.of(start));
        } finally {
            if (!optimizer) {
                deleteStaged(start);
            }
        }
        return Outcome.done(new OperationResult.WeightsLoaded(path));
    }

    /** The folder of the entity's saved state {@code path} (of any of its runs); empty when there is none. */
    Optional<Path> folder(LiveRun live, String path) {
        return TinkerPath.parse(path).flatMap(p -> {
            OptionalInt step = store.findState(live.run().entity(), p.run(), p.kind(), p.name());
            return step.isPresent() ? adapters.stepFolder(p.run(), step.getAsInt()) : Optional.empty();
        });
    }

    private TinkerPath named(LiveRun live, String kind, String name) {
        int step = checkpoint(live);
        ModelId model = live.run().model();
        store.nameState(model, kind, name, step, clock.instant());
        return new TinkerPath(model, kind, name);
    }

    private int checkpoint(LiveRun live) {
        live.markStarted();
        ModelId model = live.run().model();
        return checkpoints.insertNext(model, clock.instant(), step -> adapters.writeStep(model, step,
                live.trainer()::save)).step();
    }

    private static Path adapterOnly(Path folder) {
        try {
            Path copy = Files.createTempDirectory("crucible-load-");
            for (String file : ADAPTER_FILES) {
                Files.copy(folder.resolve(file), copy.resolve(file));
            }
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stage the adapter of " + folder, e);
        }
    }

    private static void deleteStaged(Path copy) {
        try {
            for (String file : ADAPTER_FILES) {
                Files.deleteIfExists(copy.resolve(file));
            }
            Files.deleteIfExists(copy);
        } catch (IOException e) {
            // a staging folder left in the temporary directory is harmless; the load itself succeeded
        }
    }
}
