package dev.crucible.application.job;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.ACME_CALLER;
import static dev.crucible.application.fakes.Fixtures.GLOBEX;
import static dev.crucible.application.fakes.Fixtures.GLOBEX_CALLER;
import static dev.crucible.application.fakes.Fixtures.NOW;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.fakes.InMemoryJobStore;
import dev.crucible.domain.job.JobType;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.paging.Page;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.tenancy.EntityName;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ListJobsServiceTest {

    private final InMemoryJobStore store = new InMemoryJobStore();
    private final ListJobsService service = new ListJobsService(store);
    private final List<TrainingJob> acme = IntStream.range(0, 5).mapToObj(i -> queue(ACME)).toList();
    private final TrainingJob globex = queue(GLOBEX);

    private TrainingJob queue(EntityName entity) {
        TrainingJob job = TrainingJob.queue(JobType.RL, ModelId.random(), entity, NOW);
        store.save(job);
        return job;
    }

    private Page<TrainingJob> page(Optional<UUID> after, int limit, SortOrder order) {
        return value(service.list(new ListJobsUseCase.Command(ACME_CALLER, new PageRequest(after, limit, order))));
    }

    @Test
    void pagesTheEntitysJobsNewestFirstWithACursor() {
        Page<TrainingJob> first = page(Optional.empty(), 2, SortOrder.DESC);
        assertEquals(List.of(acme.get(4), acme.get(3)), first.items());
        assertTrue(first.hasMore());
        Page<TrainingJob> last = page(Optional.of(acme.get(1).id().value()), 2, SortOrder.DESC);
        assertEquals(List.of(acme.get(0)), last.items());
        assertFalse(last.hasMore());
        assertEquals(acme, page(Optional.empty(), 100, SortOrder.ASC).items());
    }

    @Test
    void anotherEntitysJobIsNeitherListedNorACursor() {
        assertFalse(page(Optional.empty(), 100, SortOrder.ASC).items().contains(globex));
        assertRefused(service.list(new ListJobsUseCase.Command(ACME_CALLER,
                new PageRequest(Optional.of(globex.id().value()), 10, SortOrder.ASC))), Refusal.Reason.INVALID, "after");
        assertEquals(List.of(globex), value(service.list(new ListJobsUseCase.Command(GLOBEX_CALLER,
                new PageRequest(Optional.empty(), 10, SortOrder.ASC)))).items());
    }
}
