package dev.crucible.application.primitives;

import java.time.Clock;
import java.util.logging.Logger;

/**
 * The restart rule: a run's gradients, optimiser state and unsaved adapter live in the process that accepted its
 * operations, so when a process starts, every operation a previous one left pending is failed, category
 * {@code server}. None is lost (each is answered) and none stays pending.
 */
public record OperationRecovery(OperationLog log, Clock clock) {

    private static final Logger LOG = Logger.getLogger(OperationRecovery.class.getName());

    /** Fails the pending operations; run once on start, before requests are served. */
    public int recover() {
        int failed = log.failPending("the server restarted before this operation finished; the run's in-memory "
                + "state is lost: create a model and load_weights from a saved state", clock.instant());
        if (failed > 0) {
            LOG.warning(failed + " training operations left pending by a previous process were failed");
        }
        return failed;
    }
}
