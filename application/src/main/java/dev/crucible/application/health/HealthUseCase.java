package dev.crucible.application.health;

/** {@code /v1/health}: whether the process serves, cheaply, for a liveness probe. Thread-safe. */
public interface HealthUseCase {

    /** Health now; never blocks on the database or an engine. */
    Health health();
}
