package dev.crucible.application.job;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.job.JobId;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.tenancy.Caller;

/** Reads one of the caller's jobs. */
public interface GetJobUseCase {

    record Command(Caller caller, JobId jobId) {
    }

    Outcome<TrainingJob> get(Command command);
}
