package dev.crucible.domain.job;

/**
 * Kinds of job event, in the order a job writes them; every job ends with exactly one terminal kind. A job handed back
 * to the queue by a stopping process writes {@code training_requeued} and, once claimed again, a second
 * {@code training_started}.
 */
public enum JobEventType {
    TRAINING_STARTED, GRADIENT_STEP, TRAINING_REQUEUED, TRAINING_ENDED, TRAINING_FAILED;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public boolean terminal() {
        return this == TRAINING_ENDED || this == TRAINING_FAILED;
    }
}
