package dev.crucible.application.model;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.ACME_CALLER;
import static dev.crucible.application.fakes.Fixtures.GLOBEX_CALLER;
import static dev.crucible.application.fakes.Fixtures.NOW;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.crucible.application.fakes.Fixtures;
import dev.crucible.application.fakes.InMemoryCheckpointStore;
import dev.crucible.application.fakes.InMemoryModelStore;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.paging.Page;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.CheckpointId;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.tenancy.Caller;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ListCheckpointsServiceTest {

    private final InMemoryCheckpointStore checkpoints = new InMemoryCheckpointStore();
    private final InMemoryModelStore models = new InMemoryModelStore(checkpoints);
    private final ListCheckpointsService service = new ListCheckpointsService(models, checkpoints);
    private final Model model = models.add(Fixtures.model(ACME, "agent", 4));
    private final List<Checkpoint> stored = List.of(0, 1, 2, 3, 4).stream()
            .map(step -> checkpoints.add(new Checkpoint(CheckpointId.random(), model.id(), step, Map.of(), NOW)))
            .toList();

    private Outcome<Page<Checkpoint>> list(Caller caller, Optional<UUID> after, int limit, SortOrder order) {
        return service.list(new ListCheckpointsUseCase.Command(caller, model.id(), new PageRequest(after, limit, order)));
    }

    private static List<Integer> steps(Page<Checkpoint> page) {
        return page.items().stream().map(Checkpoint::step).toList();
    }

    private Optional<UUID> after(int step) {
        return Optional.of(stored.get(step).id().value());
    }

    /**
     * Pages of two in {@code order}, each after the last step of the one before, hold {@code pages}'s steps; every
     * page but the last has more.
     */
    private void assertPagesOfTwo(SortOrder order, List<List<Integer>> pages) {
        Optional<UUID> cursor = Optional.empty();
        for (int i = 0; i < pages.size(); i++) {
            Page<Checkpoint> page = value(list(ACME_CALLER, cursor, 2, order));
            assertEquals(pages.get(i), steps(page));
            assertEquals(i < pages.size() - 1, page.hasMore());
            cursor = after(page.items().getLast().step());
        }
    }

    @Test
    void pagesAscendingWithHasMore() {
        assertPagesOfTwo(SortOrder.ASC, List.of(List.of(0, 1), List.of(2, 3), List.of(4)));
    }

    @Test
    void pagesDescendingWithHasMore() {
        assertPagesOfTwo(SortOrder.DESC, List.of(List.of(4, 3), List.of(2, 1), List.of(0)));
    }

    @Test
    void aPageThatEndsExactlyHasNoMore() {
        Page<Checkpoint> page = value(list(ACME_CALLER, Optional.empty(), 5, SortOrder.ASC));
        assertEquals(List.of(0, 1, 2, 3, 4), steps(page));
        assertFalse(page.hasMore());
    }

    @Test
    void afterThatIsNotACheckpointOfTheModelIsInvalid() {
        UUID unknown = UUID.fromString("00000000-0000-0000-0000-00000000dead");
        String message = assertRefused(list(ACME_CALLER, Optional.of(unknown), 2, SortOrder.ASC),
                Refusal.Reason.INVALID, "after");
        assertEquals("after '" + unknown + "' is not a checkpoint of model " + model.id(), message);
    }

    @Test
    void afterThatIsAnotherModelsCheckpointIsInvalid() {
        Model other = models.add(Fixtures.model(ACME, "other", 0));
        Checkpoint foreign = checkpoints.add(Checkpoint.initial(other.id(), NOW));
        assertRefused(list(ACME_CALLER, Optional.of(foreign.id().value()), 2, SortOrder.ASC), Refusal.Reason.INVALID,
                "after");
    }

    @Test
    void anotherEntitysModelIsNotFound() {
        assertRefused(list(GLOBEX_CALLER, Optional.empty(), 2, SortOrder.ASC), Refusal.Reason.NOT_FOUND, "model_id");
    }
}
