package dev.crucible.application.job;

import dev.crucible.domain.job.JobId;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.paging.Page;
import dev.crucible.kernel.refusal.Outcome;

/** Resolves the cursor to one of the entity's jobs, then fetches one row more than the page to learn {@code has_more}. */
public record ListJobsService(JobStore jobs) implements ListJobsUseCase {

    @Override
    public Outcome<Page<TrainingJob>> list(Command command) {
        var entity = command.caller().entity();
        return command.page().list(id -> jobs.find(entity, new JobId(id)), "training jobs",
                after -> jobs.fetchPage(entity, command.page(), after));
    }
}
