package dev.crucible.application.health;

import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineHealth;
import dev.crucible.engine.spi.EngineProvider;
import java.util.List;
import java.util.stream.Collectors;

/** Probes over the installed engine plugins. */
public final class EngineProbes {

    private EngineProbes() {
    }

    /** Fails when no healthy engine can serve inference (the inference queue cannot make progress). */
    public static Probe inference(List<EngineProvider> engines) {
        return () -> {
            List<EngineProvider> capable = engines.stream()
                    .filter(e -> e.capabilities().contains(Capability.INFERENCE)).toList();
            if (capable.isEmpty()) {
                throw new IllegalStateException("inference is not available: no installed engine has the "
                        + Capability.INFERENCE + " capability");
            }
            if (capable.stream().noneMatch(e -> e.health().ok())) {
                throw new IllegalStateException("no inference engine is healthy: " + describe(capable));
            }
        };
    }

    /** Fails when any installed engine reports itself unhealthy. */
    public static Probe all(List<EngineProvider> engines) {
        return () -> {
            List<EngineProvider> sick = engines.stream().filter(e -> !e.health().ok()).toList();
            if (!sick.isEmpty()) {
                throw new IllegalStateException("unhealthy engines: " + describe(sick));
            }
        };
    }

    private static String describe(List<EngineProvider> engines) {
        return engines.stream().map(e -> {
            EngineHealth h = e.health();
            return e.name() + " (" + h.detail() + ")";
        }).collect(Collectors.joining(", "));
    }
}
