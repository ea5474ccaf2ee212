package dev.crucible.application.model;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.ACME_CALLER;
import static dev.crucible.application.fakes.Fixtures.GLOBEX;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.fakes.Fixtures;
import dev.crucible.application.fakes.InMemoryCheckpointStore;
import dev.crucible.application.fakes.InMemoryModelStore;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.paging.Page;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ListModelsServiceTest {

    private final InMemoryModelStore models = new InMemoryModelStore(new InMemoryCheckpointStore());
    private final ListModelsService service = new ListModelsService(models);
    private final List<Model> acme = IntStream.range(0, 3).mapToObj(i -> models.add(Fixtures.model(ACME, "m" + i, 0)))
            .toList();
    private final Model globex = models.add(Fixtures.model(GLOBEX, "theirs", 0));

    private Page<Model> page(Optional<UUID> after, int limit, SortOrder order) {
        return value(service.list(new ListModelsUseCase.Command(ACME_CALLER, new PageRequest(after, limit, order))));
    }

    @Test
    void pagesTheEntitysModelsWithACursor() {
        Page<Model> first = page(Optional.empty(), 2, SortOrder.ASC);
        assertEquals(acme.subList(0, 2), first.items());
        assertTrue(first.hasMore());
        Page<Model> rest = page(Optional.of(acme.get(1).id().value()), 2, SortOrder.ASC);
        assertEquals(List.of(acme.get(2)), rest.items());
        assertFalse(rest.hasMore());
        assertEquals(List.of(acme.get(2), acme.get(1), acme.get(0)), page(Optional.empty(), 10, SortOrder.DESC).items());
    }

    @Test
    void anotherEntitysModelIsNeitherListedNorACursor() {
        assertFalse(page(Optional.empty(), 100, SortOrder.ASC).items().contains(globex));
        assertRefused(service.list(new ListModelsUseCase.Command(ACME_CALLER,
                new PageRequest(Optional.of(globex.id().value()), 10, SortOrder.ASC))), Refusal.Reason.INVALID, "after");
    }
}
