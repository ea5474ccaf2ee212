package dev.crucible.application.job;

import dev.crucible.domain.job.JobId;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.paging.Page;
import dev.crucible.kernel.refusal.Outcome;

/** Resolves the cursor to one of the entity's jobs, then fetches one row more than the page to learn {@code has_more}. */
public record ListJobsService(JobStore jobs) implements ListJobsUseCase {

    @Override
    public Outcome<Page<TrainingJob>> list(Command command) {
        return jobs.page(command.caller(), command.page(), JobId::new, "training jobs");
    }
}
