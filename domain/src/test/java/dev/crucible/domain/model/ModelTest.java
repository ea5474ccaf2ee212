package dev.crucible.domain.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ModelTest {

    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");
    private static final ModelCoordinates COORDS = new ModelCoordinates(new EntityName("acme"), "chat", "agent");

    @Test
    void createStartsAtStep0() {
        Model model = Model.create(COORDS, "qwen", NOW);
        assertEquals(0, model.latestStep());
        assertEquals(COORDS, model.coordinates());
        assertEquals("qwen", model.baseModel());
        assertEquals(NOW, model.createdAt());
    }

    @Test
    void createdModelsGetFreshIds() {
        assertNotEquals(Model.create(COORDS, "qwen", NOW).id(), Model.create(COORDS, "qwen", NOW).id());
    }

    @Test
    void addressUsesTheCrucibleScheme() {
        assertEquals("crucible:///acme/chat/agent", Model.create(COORDS, "qwen", NOW).address());
    }

    @Test
    void rejectsANegativeLatestStep() {
        ModelId id = ModelId.random();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Model(id, COORDS, "qwen", NOW, -1));
        assertEquals("latestStep must be >= 0, got -1", e.getMessage());
    }

    @Test
    void rejectsNullFields() {
        ModelId id = ModelId.random();
        assertThrows(NullPointerException.class, () -> new Model(null, COORDS, "qwen", NOW, 0));
        assertThrows(NullPointerException.class, () -> new Model(id, null, "qwen", NOW, 0));
        assertThrows(NullPointerException.class, () -> new Model(id, COORDS, null, NOW, 0));
        assertThrows(NullPointerException.class, () -> new Model(id, COORDS, "qwen", null, 0));
    }
}
