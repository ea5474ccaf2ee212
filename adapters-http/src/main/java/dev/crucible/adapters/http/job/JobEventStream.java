package dev.crucible.adapters.http.job;

import dev.crucible.application.job.GetJobUseCase;
import dev.crucible.application.job.ListJobEventsUseCase;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.JobId;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.paging.Page;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.domain.tenancy.Caller;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * One reader's place in a job's events: each {@link #poll()} reads the job's status, then every event after the
 * last one handed out. Because a job's events are written before it reaches a final status, the poll that first
 * sees a final status also sees its last event, and the stream can end there. Used by one subscriber at a time.
 */
final class JobEventStream {

    /** What one poll found: the new events, and whether the job had ended before they were read. */
    record Poll(List<JobEvent> events, boolean ended) {
    }

    private static final int PAGE = PageRequest.MAX_LIMIT;

    private final GetJobUseCase jobs;
    private final ListJobEventsUseCase events;
    private final Caller caller;
    private final JobId job;
    private Optional<UUID> after;

    JobEventStream(GetJobUseCase jobs, ListJobEventsUseCase events, Caller caller, JobId job, Optional<UUID> after) {
        this.jobs = jobs;
        this.events = events;
        this.caller = caller;
        this.job = job;
        this.after = after;
    }

    Poll poll() {
        TrainingJob now = RefusalException.unwrap(jobs.get(new GetJobUseCase.Command(caller, job)));
        List<JobEvent> found = new ArrayList<>();
        Page<JobEvent> page;
        do {
            page = RefusalException.unwrap(events.list(new ListJobEventsUseCase.Command(caller, job,
                    new PageRequest(after, PAGE, SortOrder.ASC))));
            found.addAll(page.items());
            if (!page.items().isEmpty()) {
                after = Optional.of(page.items().getLast().id());
            }
        } while (page.hasMore());
        return new Poll(found, now.status().terminal());
    }
}
