package dev.crucible.application.job;

import dev.crucible.domain.job.JobId;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.paging.Page;
import dev.crucible.domain.refusal.Outcome;
import dev.crucible.domain.refusal.Refusal;
import java.util.Optional;

/** Resolves the cursor to one of the entity's jobs, then fetches one row more than the page to learn {@code has_more}. */
public record ListJobsService(JobStore jobs) implements ListJobsUseCase {

    @Override
    public Outcome<Page<TrainingJob>> list(Command command) {
        Optional<TrainingJob> after = Optional.empty();
        if (command.page().after().isPresent()) {
            JobId cursor = new JobId(command.page().after().get());
            after = jobs.find(command.caller().entity(), cursor);
            if (after.isEmpty()) {
                return Outcome.refused(Refusal.invalid("after", "after '" + cursor + "' is not one of your training jobs"));
            }
        }
        return Outcome.done(Page.fromFetch(jobs.fetchPage(command.caller().entity(), command.page(), after),
                command.page()));
    }
}
