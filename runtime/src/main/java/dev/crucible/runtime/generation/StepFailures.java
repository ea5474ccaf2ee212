package dev.crucible.runtime.generation;

/**
 * The generation steps that failed in a row, and what they mean. A forward that succeeds clears the count; the
 * {@value #MAX_FAILED_STEPS}th failed step in a row means the engine, not a request, is broken: the loop then fails
 * every running and waiting request, stops, and {@link #broken()} says why, so the model can be reloaded.
 *
 * <p>Threading: counted on the scheduling thread; {@link #broken()} is read from any thread.
 */
final class StepFailures {

    /** Failed steps in a row after which the engine counts as broken and the loop stops for a reload. */
    static final int MAX_FAILED_STEPS = 3;
    private static final System.Logger LOG = System.getLogger(StepFailures.class.getName());

    private int failedSteps;
    private volatile String broken;

    /** Counts a failed step; the {@value #MAX_FAILED_STEPS}th in a row breaks the loop (checked before it goes on). */
    void failed(Throwable failure) {
        if (++failedSteps >= MAX_FAILED_STEPS) {
            broken = "its last " + failedSteps + " steps failed";
        }
        // counted before it is logged, so a failure to log (another OutOfMemoryError) still counts
        LOG.log(System.Logger.Level.WARNING, "a generation step failed (" + failedSteps + " in a row); its requests"
                + " fail", failure);
    }

    /** A forward succeeded: the engine works, so the failures so far were not in a row. */
    void forwardSucceeded() {
        failedSteps = 0;
    }

    /**
     * Why the loop gave up, or null while it serves: {@value #MAX_FAILED_STEPS} steps in a row failed, so the engine
     * (not a request) is broken and the model needs reloading. Read from any thread.
     */
    String broken() {
        return broken;
    }
}
