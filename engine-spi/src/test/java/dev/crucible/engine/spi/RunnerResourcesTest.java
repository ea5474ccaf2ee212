package dev.crucible.engine.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RunnerResourcesTest {

    /** Counts how often it was freed. */
    private static final class Counted extends RunnerResource {

        int freed;

        Counted(RunnerResources owner) {
            super(owner);
        }

        @Override
        protected void free() {
            freed++;
        }
    }

    private final RunnerResources resources = new RunnerResources(new Object());

    @Test
    void aResourceIsFreedOnceByItsOwnCloseAndNotAgainByTheRunners() {
        Counted cache = resources.add(new Counted(resources));
        cache.close();
        cache.close();
        assertTrue(resources.close());
        assertEquals(1, cache.freed);
        assertTrue(cache.isClosed());
    }

    @Test
    void closingTheRunnerFreesWhatIsLeftAndRefusesNewResources() {
        Counted left = resources.add(new Counted(resources));
        assertTrue(resources.close());
        assertFalse(resources.close(), "the second close does nothing");
        assertEquals(1, left.freed);
        assertTrue(resources.isClosed());
        assertThrows(IllegalStateException.class, () -> resources.add(new Counted(resources)));
        assertThrows(IllegalStateException.class, resources::requireOpen);
    }

    @Test
    void aResourceBelongsOnlyToTheRunnerThatHandedItOut() {
        RunnerResources other = new RunnerResources(new Object());
        Counted mine = resources.add(new Counted(resources));
        assertTrue(mine.belongsTo(resources));
        assertFalse(mine.belongsTo(other));
        other.close();
        assertEquals(0, mine.freed, "another runner's close leaves it alone");
    }
}
