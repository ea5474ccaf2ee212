package dev.crucible.application.job;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import java.util.Map;

/** Queues an SFT job over a JSONL dataset; answers at once with the queued job. */
public interface CreateSftJobUseCase {

    record Command(Caller caller, ModelId modelId, String trainingDataUrl, Map<String, Object> config,
            Map<String, Object> experimentalConfig) {
    }

    Outcome<TrainingJob> create(Command command);
}
