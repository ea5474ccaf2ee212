package dev.crucible.domain.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class IdsTest {

    private static final UUID UUID_1 = UUID.fromString("11111111-2222-3333-4444-555555555555");

    @Test
    void modelIdPrintsAsItsUuid() {
        assertEquals(UUID_1.toString(), new ModelId(UUID_1).toString());
    }

    @Test
    void checkpointIdPrintsAsItsUuid() {
        assertEquals(UUID_1.toString(), new CheckpointId(UUID_1).toString());
    }

    @Test
    void randomIdsDiffer() {
        assertNotEquals(ModelId.random(), ModelId.random());
        assertNotEquals(CheckpointId.random(), CheckpointId.random());
    }

    @Test
    void idsAreNeverNull() {
        assertThrows(NullPointerException.class, () -> new ModelId(null));
        assertThrows(NullPointerException.class, () -> new CheckpointId(null));
    }
}
