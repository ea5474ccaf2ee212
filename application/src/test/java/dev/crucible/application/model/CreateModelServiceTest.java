package dev.crucible.application.model;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.ACME_CALLER;
import static dev.crucible.application.fakes.Fixtures.BASE_MODEL;
import static dev.crucible.application.fakes.Fixtures.CLOCK;
import static dev.crucible.application.fakes.Fixtures.GLOBEX_CALLER;
import static dev.crucible.application.fakes.Fixtures.NOW;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.fakes.InMemoryCheckpointStore;
import dev.crucible.application.fakes.InMemoryModelStore;
import dev.crucible.application.fakes.StaticBaseModelCatalog;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelCoordinates;
import dev.crucible.domain.tenancy.Caller;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CreateModelServiceTest {

    private final InMemoryCheckpointStore checkpoints = new InMemoryCheckpointStore();
    private final InMemoryModelStore models = new InMemoryModelStore(checkpoints);
    private final CreateModelService service =
            new CreateModelService(models, StaticBaseModelCatalog.of(BASE_MODEL, "llama-3.2-1b"), CLOCK);

    private Outcome<Model> create(Caller caller, Optional<String> entity, String project, String name, String base,
            boolean returnExisting) {
        return service.create(new CreateModelUseCase.Command(caller, entity, project, name, base, returnExisting));
    }

    private Outcome<Model> create(String name, String base, boolean returnExisting) {
        return create(ACME_CALLER, Optional.empty(), "chat", name, base, returnExisting);
    }

    @Test
    void createsAModelInTheCallersEntity() {
        Model model = value(create("agent", BASE_MODEL, false));
        assertEquals(new ModelCoordinates(ACME, "chat", "agent"), model.coordinates());
        assertEquals(BASE_MODEL, model.baseModel());
        assertEquals(NOW, model.createdAt());
        assertEquals(0, model.latestStep());
        assertTrue(models.contains(model.id()));
    }

    @Test
    void insertsTheStep0Checkpoint() {
        Model model = value(create("agent", BASE_MODEL, false));
        List<Checkpoint> stored = checkpoints.of(model.id());
        assertEquals(1, stored.size());
        assertEquals(0, stored.getFirst().step());
        assertEquals(Map.of(), stored.getFirst().metrics());
        assertEquals(NOW, stored.getFirst().createdAt());
    }

    @Test
    void acceptsTheCallersOwnEntityNamedExplicitly() {
        Model model = value(create(ACME_CALLER, Optional.of("acme"), "chat", "agent", BASE_MODEL, false));
        assertEquals(ACME, model.coordinates().entity());
    }

    @Test
    void anotherEntityIsInvalidOnEntity() {
        String message = assertRefused(create(ACME_CALLER, Optional.of("globex"), "chat", "agent", BASE_MODEL, false),
                Refusal.Reason.INVALID, "entity");
        assertEquals("entity must be the API key's entity 'acme' or null, got 'globex'", message);
    }

    @Test
    void badProjectIsInvalidOnProject() {
        String message = assertRefused(create(ACME_CALLER, Optional.empty(), "a/b", "agent", BASE_MODEL, false),
                Refusal.Reason.INVALID, "project");
        assertEquals("project must be 1 to 128 characters without '/', ':' or whitespace, got 'a/b'", message);
    }

    @Test
    void badNameIsInvalidOnName() {
        assertEquals("name must not be empty",
                assertRefused(create("", BASE_MODEL, false), Refusal.Reason.INVALID, "name"));
        assertRefused(create("my:model", BASE_MODEL, false), Refusal.Reason.INVALID, "name");
    }

    @Test
    void unknownBaseModelIsInvalidListingTheServedOnes() {
        String message = assertRefused(create("agent", "gpt-5", false), Refusal.Reason.INVALID, "base_model");
        assertEquals("base_model 'gpt-5' is not served here; served base models: qwen3-0.6b, llama-3.2-1b", message);
        assertEquals(List.of(), models.list(ACME));
    }

    @Test
    void withNoServedBaseModelsTheRefusalSaysHowToConfigureOne() {
        CreateModelService bare = new CreateModelService(models, StaticBaseModelCatalog.of(), CLOCK);
        String message = assertRefused(bare.create(new CreateModelUseCase.Command(ACME_CALLER, Optional.empty(), "chat",
                "agent", BASE_MODEL, false)), Refusal.Reason.INVALID, "base_model");
        assertEquals("base_model 'qwen3-0.6b' is not served here; served base models: none (configure one with "
                + "--model NAME=PATH)", message);
    }

    @Test
    void anExistingModelIsAConflictWithoutReturnExisting() {
        value(create("agent", BASE_MODEL, false));
        String message = assertRefused(create("agent", BASE_MODEL, false), Refusal.Reason.CONFLICT, "name");
        assertEquals("model acme/chat/agent already exists", message);
        assertEquals(1, models.list(ACME).size());
    }

    @Test
    void returnExistingWithTheSameBaseReturnsTheExistingModel() {
        Model first = value(create("agent", BASE_MODEL, false));
        Model again = value(create("agent", BASE_MODEL, true));
        assertEquals(first, again);
        assertEquals(1, checkpoints.of(first.id()).size());
    }

    @Test
    void returnExistingWithAnotherBaseIsAConflictOnBaseModel() {
        value(create("agent", BASE_MODEL, false));
        String message = assertRefused(create("agent", "llama-3.2-1b", true), Refusal.Reason.CONFLICT, "base_model");
        assertEquals("model exists with base_model 'qwen3-0.6b', not 'llama-3.2-1b'", message);
    }

    @Test
    void theSameCoordinatesInAnotherEntityAreNoConflict() {
        Model ours = value(create("agent", BASE_MODEL, false));
        Model theirs = value(create(GLOBEX_CALLER, Optional.empty(), "chat", "agent", BASE_MODEL, false));
        assertNotEquals(ours.id(), theirs.id());
    }
}
