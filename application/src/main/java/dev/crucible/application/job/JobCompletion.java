package dev.crucible.application.job;

import dev.crucible.domain.job.TrainingJob;
import java.util.Objects;

/** What {@link JobQueue#complete} did: the runner fails the job itself when its checkpoint step was taken. */
public sealed interface JobCompletion {

    /** The checkpoint and the job's {@code training_ended} event were written; {@code job} is the completed job. */
    record Completed(TrainingJob job) implements JobCompletion {
        public Completed {
            Objects.requireNonNull(job, "job");
        }
    }

    /** The job was no longer running under this runner (cancelled, failed or its model deleted); nothing written. */
    record NotHeld() implements JobCompletion {
    }

    /**
     * The model already has a checkpoint at the trained {@code step} (the unique {@code (model_id, step)} refused it):
     * someone else wrote one while the job trained. Nothing was written; the job is still running.
     */
    record StepTaken(int step) implements JobCompletion {
    }
}
