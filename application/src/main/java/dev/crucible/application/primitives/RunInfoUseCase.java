package dev.crucible.application.primitives;

import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;

/** {@code get_info}: what a run trains, answered at once; not found for an unknown or another entity's run. */
public interface RunInfoUseCase {

    /** @param architecture the base model's architecture name ({@code qwen3}, {@code llama}) */
    record RunInfo(TrainingRun run, String architecture) {
    }

    Outcome<RunInfo> info(Caller caller, String modelId);
}
