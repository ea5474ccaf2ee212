package dev.crucible.server.support;

import dev.crucible.application.job.JobTrainer;
import dev.crucible.application.job.TrainingProgress;
import dev.crucible.application.job.TrainingResult;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.CheckpointSteps;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * Test double of the trainer, active only when {@code test.trainer} is set: {@code instant} reports one
 * gradient step and returns a trained result for the model's next step at once; {@code blocking} reports training started and then
 * waits until the job is taken away (or the process is killed). It lets the control-plane tests drive the
 * job lifecycle before a real trainer exists; it is never part of the server.
 */
@Singleton
@Replaces(JobTrainer.class)
@Requires(property = "test.trainer")
public final class TestModeTrainer implements JobTrainer {

    private final String mode;
    private final CheckpointStore checkpoints;

    TestModeTrainer(@Value("${test.trainer}") String mode, CheckpointStore checkpoints) {
        this.mode = mode;
        this.checkpoints = checkpoints;
    }

    @Override
    public TrainingResult train(TrainingJob job, JobSpec spec, TrainingProgress progress) {
        progress.started(1, Map.of());
        if (mode.equals("blocking")) {
            while (!progress.cancelled()) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return new TrainingResult.Failed("interrupted");
                }
            }
            return new TrainingResult.Failed("taken away");
        }
        progress.gradientStep(Map.of("loss", 0.5, "grad_norm", 1.0, "learning_rate", 5e-6));
        return new TrainingResult.Trained(CheckpointSteps.of(checkpoints.steps(job.modelId())).next(),
                Map.of("train/loss", 0.5));
    }
}
