package dev.crucible.application.model;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.ACME_CALLER;
import static dev.crucible.application.fakes.Fixtures.GLOBEX_CALLER;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.application.fakes.Fixtures;
import dev.crucible.application.fakes.InMemoryCheckpointStore;
import dev.crucible.application.fakes.InMemoryModelStore;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelId;
import org.junit.jupiter.api.Test;

class ModelLookupTest {

    private final InMemoryModelStore models = new InMemoryModelStore(new InMemoryCheckpointStore());

    @Test
    void findsTheCallersModel() {
        Model model = models.add(Fixtures.model(ACME, "agent", 0));
        assertEquals(model, value(ModelLookup.ownedBy(models, ACME_CALLER, model.id())));
    }

    @Test
    void anotherEntitysModelLooksMissing() {
        Model model = models.add(Fixtures.model(ACME, "agent", 0));
        assertEquals("model " + model.id() + " not found",
                assertRefused(ModelLookup.ownedBy(models, GLOBEX_CALLER, model.id()), Refusal.Reason.NOT_FOUND, "model_id"));
    }

    @Test
    void aMissingModelIsNotFound() {
        assertRefused(ModelLookup.ownedBy(models, ACME_CALLER, ModelId.random()), Refusal.Reason.NOT_FOUND, "model_id");
    }
}
