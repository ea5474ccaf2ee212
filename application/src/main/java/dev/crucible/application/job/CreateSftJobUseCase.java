package dev.crucible.application.job;

import dev.crucible.domain.job.SftConfig;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import java.util.Map;
import java.util.Objects;

/** Queues an SFT job over a JSONL dataset; answers at once with the queued job. */
public interface CreateSftJobUseCase {

    /**
     * @param config             the batch settings, resolved from the client's {@code config} at the edge
     * @param experimentalConfig the client's {@code experimental_config}, kept as sent (no SFT setting reads it)
     */
    record Command(Caller caller, ModelId modelId, String trainingDataUrl, SftConfig config,
            Map<String, Object> experimentalConfig) {
        public Command {
            Objects.requireNonNull(config, "config");
        }
    }

    Outcome<TrainingJob> create(Command command);
}
