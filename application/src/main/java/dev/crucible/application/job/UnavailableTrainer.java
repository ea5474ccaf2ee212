package dev.crucible.application.job;

import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineProvider;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The trainer used when no installed engine can train: every job fails at once with a message that says so
 * and names the installed engines, so a client is never left believing its model was trained.
 */
public final class UnavailableTrainer implements JobTrainer {

    private final String message;

    public UnavailableTrainer(List<EngineProvider> engines) {
        String installed = engines.isEmpty() ? "none"
                : engines.stream().map(e -> e.name() + " " + e.capabilities()).collect(Collectors.joining(", "));
        this.message = "training is not available on this server: no installed engine has the "
                + Capability.TRAINING + " capability (installed engines: " + installed + ")";
    }

    @Override
    public TrainingResult train(TrainingJob job, JobSpec spec, TrainingProgress progress) {
        return new TrainingResult.Failed(message);
    }
}
