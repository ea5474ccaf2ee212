package dev.crucible.application.model;

import dev.crucible.application.job.JobStore;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.Model;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Checks the model, its jobs and the adapter, then stores the adapter as the model's next checkpoint, unless the
 * model's entity already stores {@code maxCheckpointsPerEntity} adapters, checkpoints past step 0 over all its models
 * (a 413 that stores nothing).
 */
public record ImportAdapterService(ModelStore models, JobStore jobs, CheckpointStore checkpoints, AdapterFiles adapters,
        AdapterCheck check, int maxCheckpointsPerEntity, Clock clock) implements ImportAdapterUseCase {

    public ImportAdapterService {
        if (maxCheckpointsPerEntity < 1) {
            throw new IllegalArgumentException("crucible.adapters.max-per-entity must be >= 1, got "
                    + maxCheckpointsPerEntity);
        }
    }

    /** The files of a PEFT LoRA adapter that Crucible keeps. */
    public static final List<String> FILES = List.of("adapter_config.json", "adapter_model.safetensors");

    @Override
    public Outcome<Checkpoint> importAdapter(Command command) {
        return ModelLookup.ownedBy(models, command.caller(), command.modelId()).then(model -> store(model, command));
    }

    private Outcome<Checkpoint> store(Model model, Command command) {
        if (!jobs.active(model.id()).isEmpty()) {
            return Outcome.refused(Refusal.conflict("model_id", "model " + model.id() + " has a training job queued "
                    + "or running, which will write its next checkpoint; import the adapter when it has ended"));
        }
        Optional<String> problem = check.problem(model.baseModel(), command.folder());
        if (problem.isPresent()) {
            return Outcome.refused(Refusal.invalid("adapter", "the adapter does not fit base model '"
                    + model.baseModel() + "': " + problem.get()));
        }
        return checkpoints.insertNextWithin(model.id(), model.coordinates().entity(), maxCheckpointsPerEntity,
                        clock.instant(),
                        step -> adapters.writeStep(model.id(), step, folder -> copy(command.folder(), folder)))
                .<Outcome<Checkpoint>>map(Outcome::done)
                .orElseGet(() -> Outcome.refused(new Refusal(Refusal.Reason.TOO_LARGE, "this entity already stores "
                        + maxCheckpointsPerEntity + " adapter checkpoints, its most (setting crucible.adapters.max-per-entity); "
                        + "delete some before importing more", "adapter")));
    }

    private static void copy(Path from, Path to) {
        try {
            for (String file : FILES) {
                Files.copy(from.resolve(file), to.resolve(file), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the imported adapter", e);
        }
    }
}
