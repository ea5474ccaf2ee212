package dev.crucible.engine.spi;

import java.util.function.Supplier;

/**
 * Whether an engine is usable: an unhealthy engine is a fatal engine failure and surfaces in the system check,
 * unlike a single failed request or job.
 *
 * @param ok true when usable
 * @param detail why not, or a short description when usable; never null
 */
public record EngineHealth(boolean ok, String detail) {

    public EngineHealth {
        if (detail == null) {
            throw new IllegalArgumentException("detail must not be null");
        }
    }

    public static EngineHealth healthy() {
        return new EngineHealth(true, "ok");
    }

    public static EngineHealth unhealthy(String why) {
        return new EngineHealth(false, why);
    }

    /**
     * Healthy with the description {@code describe} gives, which starts the engine's runtime; unhealthy with the
     * message of the {@link EngineException} it throws when the runtime does not start.
     */
    public static EngineHealth probe(Supplier<String> describe) {
        try {
            return new EngineHealth(true, describe.get());
        } catch (EngineException e) {
            return unhealthy(e.getMessage());
        }
    }
}
