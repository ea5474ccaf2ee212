package dev.crucible.application.health;

import java.util.Map;

/**
 * Whether the process serves: it does unless a model's generation has stopped.
 *
 * @param failedModels the models that no longer serve, by name, each with why (they are being reloaded); empty when
 *                     all serve
 */
public record Health(Map<String, String> failedModels) {

    public Health {
        failedModels = Map.copyOf(failedModels);
    }

    /** Whether every model serves. */
    public boolean ok() {
        return failedModels.isEmpty();
    }
}
