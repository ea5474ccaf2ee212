package dev.crucible.domain.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class JobKindsTest {

    @Test
    void eventTypeWireNamesAreSnakeCase() {
        assertEquals("training_started", JobEventType.TRAINING_STARTED.wireName());
        assertEquals("gradient_step", JobEventType.GRADIENT_STEP.wireName());
        assertEquals("training_ended", JobEventType.TRAINING_ENDED.wireName());
        assertEquals("training_failed", JobEventType.TRAINING_FAILED.wireName());
    }

    @Test
    void onlyEndedAndFailedEventsAreTerminal() {
        assertFalse(JobEventType.TRAINING_STARTED.terminal());
        assertFalse(JobEventType.GRADIENT_STEP.terminal());
        assertTrue(JobEventType.TRAINING_ENDED.terminal());
        assertTrue(JobEventType.TRAINING_FAILED.terminal());
    }

    @Test
    void jobTypeWireNamesAreLowerCase() {
        assertEquals("rl", JobType.RL.wireName());
        assertEquals("sft", JobType.SFT.wireName());
    }

    @Test
    void jobIdPrintsAsItsUuidAndIsNeverNull() {
        UUID uuid = UUID.fromString("11111111-2222-3333-4444-555555555555");
        assertEquals(uuid.toString(), new JobId(uuid).toString());
        assertNotEquals(JobId.random(), JobId.random());
        assertThrows(NullPointerException.class, () -> new JobId(null));
    }
}
