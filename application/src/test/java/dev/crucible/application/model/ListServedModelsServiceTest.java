package dev.crucible.application.model;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.ACME_CALLER;
import static dev.crucible.application.fakes.Fixtures.GLOBEX;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.application.fakes.Fixtures;
import dev.crucible.application.fakes.InMemoryCheckpointStore;
import dev.crucible.application.fakes.InMemoryModelStore;
import dev.crucible.application.fakes.StaticBaseModelCatalog;
import dev.crucible.domain.model.Model;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ListServedModelsServiceTest {

    private final InMemoryModelStore models = new InMemoryModelStore(new InMemoryCheckpointStore());

    @Test
    void listsTheBaseModelsAndOnlyTheCallersTrainedModels() {
        Model first = models.add(Fixtures.model(ACME, "first", 0));
        models.add(Fixtures.model(GLOBEX, "theirs", 0));
        Model second = models.add(Fixtures.model(ACME, "second", 3));
        ListServedModelsService service =
                new ListServedModelsService(StaticBaseModelCatalog.of("qwen3-0.6b", "llama-3.2-1b"), models);
        ListServedModelsUseCase.Served served = service.list(ACME_CALLER);
        assertEquals(List.of("qwen3-0.6b", "llama-3.2-1b"), served.baseModels());
        assertEquals(List.of(first, second), served.trainedModels());
    }

    @Test
    void withoutTrainedModelsOnlyBaseModelsAreServed() {
        ListServedModelsService service = new ListServedModelsService(StaticBaseModelCatalog.of("qwen3-0.6b"), models);
        assertEquals(new ListServedModelsUseCase.Served(List.of("qwen3-0.6b"), List.of(), Map.of(),
                Map.of("qwen3-0.6b", SchedulingPolicy.FCFS)), service.list(ACME_CALLER));
    }

    @Test
    void eachBaseModelShowsItsSchedulingPolicy() {
        BaseModelCatalog catalog = new BaseModelCatalog() {
            @Override
            public List<String> names() {
                return List.of("fair", "urgent");
            }

            @Override
            public SchedulingPolicy schedulingPolicy(String name) {
                return name.equals("urgent") ? SchedulingPolicy.PRIORITY : SchedulingPolicy.FCFS;
            }
        };
        ListServedModelsUseCase.Served served = new ListServedModelsService(catalog, models).list(ACME_CALLER);
        assertEquals(SchedulingPolicy.FCFS, served.schedulingOf("fair"));
        assertEquals(SchedulingPolicy.PRIORITY, served.schedulingOf("urgent"));
        assertEquals(SchedulingPolicy.FCFS, served.schedulingOf("unknown"), "a model not listed is fcfs");
    }
}
