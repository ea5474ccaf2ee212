package dev.crucible.application.primitives;

import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import java.util.List;

/**
 * Tinker's REST reads over the caller's runs and their saved states, answered at once. Another entity's run or path
 * is not found, exactly as an unknown one; a malformed id or path is invalid, naming the field.
 */
public interface TrainingRunsUseCase {

    /** Where a saved state's PEFT adapter can be downloaded: checkpoint {@code step} of model {@code model}. */
    record ArchiveLocation(ModelId model, int step) {
    }

    /** {@code weights_info}: the run behind a {@code tinker://} path, with its adapter settings. */
    Outcome<TrainingRun> weightsInfo(Caller caller, String tinkerPath);

    /** The caller's runs, newest first; {@code limit} in [1, max], {@code offset} >= 0. */
    Outcome<RunsPage> list(Caller caller, int limit, int offset);

    Outcome<RunSummary> get(Caller caller, String runId);

    /** The run's saved states, oldest first. */
    Outcome<List<RunCheckpoint>> checkpoints(Caller caller, String runId);

    /** The checkpoint that saved state {@code kind}/{@code name} of the run names. */
    Outcome<ArchiveLocation> archive(Caller caller, String runId, String kind, String name);
}
