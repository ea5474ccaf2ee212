package dev.crucible.application.job;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.paging.Page;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.JobId;
import dev.crucible.domain.tenancy.Caller;

/** Lists a job's events oldest first, a cursor page at a time ({@code page.order()} is ignored). */
public interface ListJobEventsUseCase {

    record Command(Caller caller, JobId jobId, PageRequest page) {
    }

    Outcome<Page<JobEvent>> list(Command command);
}
