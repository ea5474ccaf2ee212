package dev.crucible.application.job;

import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.paging.Page;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.tenancy.Caller;

/** Lists the caller's entity's training jobs in creation order, a cursor page at a time. */
public interface ListJobsUseCase {

    /** @param page {@code after} must be one of the entity's jobs */
    record Command(Caller caller, PageRequest page) {
    }

    Outcome<Page<TrainingJob>> list(Command command);
}
