package dev.crucible.application.job;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.paging.Page;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.JobId;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.tenancy.Caller;

/** Reads jobs and their events; another entity's job is "not found". */
public record JobQueryService(JobStore jobs, JobEventStore events) implements GetJobUseCase, ListJobEventsUseCase {

    @Override
    public Outcome<TrainingJob> get(GetJobUseCase.Command command) {
        return owned(command.caller(), command.jobId());
    }

    @Override
    public Outcome<Page<JobEvent>> list(ListJobEventsUseCase.Command command) {
        return owned(command.caller(), command.jobId()).then(job -> {
            if (command.page().after().isPresent() && !events.contains(job.id(), command.page().after().get())) {
                return Outcome.refused(Refusal.invalid("after",
                        "after '" + command.page().after().get() + "' is not an event of job " + job.id()));
            }
            return Outcome.done(Page.fromFetch(
                    events.fetch(job.id(), command.page().after(), command.page().fetchSize()), command.page()));
        });
    }

    private Outcome<TrainingJob> owned(Caller caller, JobId id) {
        return jobs.find(caller.entity(), id)
                .<Outcome<TrainingJob>>map(Outcome::done)
                .orElseGet(() -> Outcome.refused(Refusal.notFound("training_job_id", "training job " + id + " not found")));
    }
}
