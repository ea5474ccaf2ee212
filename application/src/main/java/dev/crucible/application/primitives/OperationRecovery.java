package dev.crucible.application.primitives;

import dev.crucible.application.process.ProcessIdentity;
import dev.crucible.application.process.ProcessRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.logging.Logger;

/**
 * The recovery rule when several processes share one database: a run's gradients, optimiser state and unsaved adapter
 * live in the process that accepted its operations (their owner), so an operation stays pending only while its owner
 * lives. Every process beats ({@link #beat()}) at a fixed interval and, on the same tick, fails with category
 * {@code server} the pending operations of owners that stopped beating more than {@code staleAfter} ago; a process
 * that stops cleanly fails its own at once ({@link #leave()}). None is lost (each is answered) and none stays pending;
 * the operations of a live process are never touched by another.
 *
 * @param log the operation log
 * @param processes the registry of processes and their heartbeats
 * @param self this process
 * @param staleAfter a process silent this long is dead; several heartbeat intervals
 * @param clock time
 */
public record OperationRecovery(OperationLog log, ProcessRegistry processes, ProcessIdentity self,
        Duration staleAfter, Clock clock) {

    private static final Logger LOG = Logger.getLogger(OperationRecovery.class.getName());
    static final String ORPHANED = "the server process running this operation stopped before it finished; the run's "
            + "in-memory state is lost: create a model and load_weights from a saved state";

    public OperationRecovery {
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(processes, "processes");
        Objects.requireNonNull(self, "self");
        Objects.requireNonNull(clock, "clock");
        if (staleAfter == null || staleAfter.isNegative() || staleAfter.isZero()) {
            throw new IllegalArgumentException("staleAfter must be positive, got " + staleAfter);
        }
    }

    /**
     * Records this process as alive, then fails the pending operations of dead ones; run on start, before requests
     * are served, and at every heartbeat.
     *
     * @return how many operations it failed
     */
    public int beat() {
        Instant now = clock.instant();
        processes.beat(self, now);
        int failed = log.failOrphaned(ORPHANED, now.minus(staleAfter), now);
        if (failed > 0) {
            LOG.warning(failed + " training operations of a server process that stopped were failed");
        }
        return failed;
    }

    /** This process stops: fails the operations it holds and leaves the registry. */
    public int leave() {
        int failed = log.failOwned(self.id(), ORPHANED, clock.instant());
        processes.leave(self.id());
        return failed;
    }
}
