package dev.crucible.application.job;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.ACME_CALLER;
import static dev.crucible.application.fakes.Fixtures.GLOBEX_CALLER;
import static dev.crucible.application.fakes.Fixtures.NOW;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.fakes.InMemoryJobEventStore;
import dev.crucible.application.fakes.InMemoryJobStore;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.paging.Page;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.JobEventType;
import dev.crucible.domain.job.JobId;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.JobType;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JobQueryServiceTest {

    private final InMemoryJobStore jobs = new InMemoryJobStore();
    private final InMemoryJobEventStore events = new InMemoryJobEventStore();
    private final JobQueryService service = new JobQueryService(jobs, events);
    private final TrainingJob job = enqueue();
    private final List<JobEvent> written = writeSteps(job, 5);

    private TrainingJob enqueue() {
        TrainingJob queued = TrainingJob.queue(JobType.RL, ModelId.random(), ACME, NOW);
        jobs.enqueue(queued, new JobSpec.Rl(List.of(), RlConfig.defaults()));
        return queued;
    }

    private List<JobEvent> writeSteps(TrainingJob of, int count) {
        List<JobEvent> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            JobEvent event = JobEvent.of(of.id(), JobEventType.GRADIENT_STEP, Map.of("step", i), NOW);
            events.append(event);
            out.add(event);
        }
        return out;
    }

    private Outcome<Page<JobEvent>> list(Caller caller, JobId id, Optional<UUID> after, int limit) {
        return service.list(new ListJobEventsUseCase.Command(caller, id, new PageRequest(after, limit, SortOrder.ASC)));
    }

    @Test
    void getFindsTheCallersJob() {
        assertEquals(job, value(service.get(new GetJobUseCase.Command(ACME_CALLER, job.id()))));
    }

    @Test
    void anotherEntitysJobIsNotFound() {
        String message = assertRefused(service.get(new GetJobUseCase.Command(GLOBEX_CALLER, job.id())),
                Refusal.Reason.NOT_FOUND, "training_job_id");
        assertEquals("training job " + job.id() + " not found", message);
        assertRefused(list(GLOBEX_CALLER, job.id(), Optional.empty(), 10), Refusal.Reason.NOT_FOUND, "training_job_id");
    }

    @Test
    void pagesEventsOldestFirstWithHasMore() {
        Page<JobEvent> first = value(list(ACME_CALLER, job.id(), Optional.empty(), 2));
        assertEquals(written.subList(0, 2), first.items());
        assertTrue(first.hasMore());
        Page<JobEvent> second = value(list(ACME_CALLER, job.id(), Optional.of(written.get(1).id()), 2));
        assertEquals(written.subList(2, 4), second.items());
        assertTrue(second.hasMore());
        Page<JobEvent> last = value(list(ACME_CALLER, job.id(), Optional.of(written.get(3).id()), 2));
        assertEquals(written.subList(4, 5), last.items());
        assertFalse(last.hasMore());
    }

    @Test
    void aPageThatEndsExactlyHasNoMore() {
        Page<JobEvent> page = value(list(ACME_CALLER, job.id(), Optional.empty(), 5));
        assertEquals(written, page.items());
        assertFalse(page.hasMore());
    }

    @Test
    void afterThatIsNotAnEventOfTheJobIsInvalid() {
        UUID unknown = UUID.fromString("00000000-0000-0000-0000-00000000beef");
        String message = assertRefused(list(ACME_CALLER, job.id(), Optional.of(unknown), 2), Refusal.Reason.INVALID,
                "after");
        assertEquals("after '" + unknown + "' is not an event of job " + job.id(), message);
    }

    @Test
    void afterThatIsAnotherJobsEventIsInvalid() {
        TrainingJob other = enqueue();
        JobEvent foreign = writeSteps(other, 1).getFirst();
        assertRefused(list(ACME_CALLER, job.id(), Optional.of(foreign.id()), 2), Refusal.Reason.INVALID, "after");
    }
}
