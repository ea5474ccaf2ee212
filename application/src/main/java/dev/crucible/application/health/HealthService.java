package dev.crucible.application.health;

import dev.crucible.application.inference.serving.ServedModels;
import java.util.Objects;

/** Health from the served models: unhealthy while one of them no longer serves (until it is reloaded). */
public final class HealthService implements HealthUseCase {

    private final ServedModels models;

    public HealthService(ServedModels models) {
        this.models = Objects.requireNonNull(models, "models");
    }

    @Override
    public Health health() {
        return new Health(models.failures());
    }

    /** The system check's probe: fails naming each model that no longer serves. */
    public Probe probe() {
        return () -> {
            Health health = health();
            if (!health.ok()) {
                throw new IllegalStateException("models that no longer serve (being reloaded): "
                        + health.failedModels());
            }
        };
    }
}
