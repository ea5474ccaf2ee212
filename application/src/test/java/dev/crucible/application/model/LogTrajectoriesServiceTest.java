package dev.crucible.application.model;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.ACME_CALLER;
import static dev.crucible.application.fakes.Fixtures.GLOBEX_CALLER;
import static dev.crucible.application.fakes.Fixtures.group;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.application.fakes.Fixtures;
import dev.crucible.application.fakes.InMemoryCheckpointStore;
import dev.crucible.application.fakes.InMemoryModelStore;
import dev.crucible.application.fakes.InMemoryTrajectoryLogStore;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LogTrajectoriesServiceTest {

    private final InMemoryModelStore models = new InMemoryModelStore(new InMemoryCheckpointStore());
    private final InMemoryTrajectoryLogStore logs = new InMemoryTrajectoryLogStore();
    private final LogTrajectoriesService service = new LogTrajectoriesService(models, logs);
    private final Model model = models.add(Fixtures.model(ACME, "agent", 2));

    @Test
    void storesTheGroupsWithTheirSplitPrefixedAggregates() {
        List<TrajectoryGroup> groups = List.of(group(0, 1));
        Map<String, Double> metrics = value(service.log(new LogTrajectoriesUseCase.Command(ACME_CALLER, model.id(), "val",
                groups)));
        Map<String, Double> expected = Map.of("val/reward", 0.5, "val/exception_rate", 0.0, "val/reward_std_dev", 0.5);
        assertEquals(expected, metrics);
        assertEquals(List.of(new InMemoryTrajectoryLogStore.Logged(model.id(), "val", groups, expected)), logs.logged());
    }

    @Test
    void badSplitIsInvalidOnSplitAndLogsNothing() {
        String message = assertRefused(service.log(new LogTrajectoriesUseCase.Command(ACME_CALLER, model.id(), "a/b",
                List.of(group(1)))), Refusal.Reason.INVALID, "split");
        assertEquals("split must be 1 to 64 letters, digits, '_', '.' or '-', got 'a/b'", message);
        assertEquals(List.of(), logs.logged());
    }

    @Test
    void anotherEntitysModelIsNotFoundAndLogsNothing() {
        assertRefused(service.log(new LogTrajectoriesUseCase.Command(GLOBEX_CALLER, model.id(), "val", List.of(group(1)))),
                Refusal.Reason.NOT_FOUND, "model_id");
        assertEquals(List.of(), logs.logged());
    }
}
