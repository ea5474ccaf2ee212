package dev.crucible.domain.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.domain.tenancy.EntityName;
import org.junit.jupiter.api.Test;

class ModelCoordinatesTest {

    private static final EntityName ACME = new EntityName("acme");

    @Test
    void addressUsesTheGivenScheme() {
        assertEquals("wandb-artifact:///acme/chat/agent", new ModelCoordinates(ACME, "chat", "agent").address("wandb-artifact"));
    }

    @Test
    void rejectsInvalidProjectOrName() {
        IllegalArgumentException project = assertThrows(IllegalArgumentException.class,
                () -> new ModelCoordinates(ACME, "a b", "agent"));
        assertEquals("project must be 1 to 128 characters without '/', ':' or whitespace, got 'a b'", project.getMessage());
        IllegalArgumentException name = assertThrows(IllegalArgumentException.class,
                () -> new ModelCoordinates(ACME, "chat", ""));
        assertEquals("name must not be empty", name.getMessage());
    }

    @Test
    void rejectsNullEntity() {
        assertThrows(NullPointerException.class, () -> new ModelCoordinates(null, "chat", "agent"));
    }
}
