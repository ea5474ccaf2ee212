package dev.crucible.application.model;

import java.util.List;
import java.util.Optional;

/** The base models this server is configured to serve, by name. Immutable after start-up. */
public interface BaseModelCatalog {

    /** Names of the served base models, in configuration order. */
    List<String> names();

    /** The engine that serves base model {@code name} ({@code djl}, {@code onnx}); empty when not known. */
    default Optional<String> engine(String name) {
        return Optional.empty();
    }

    /** How base model {@code name} orders its waiting requests; {@link SchedulingPolicy#FCFS} unless configured. */
    default SchedulingPolicy schedulingPolicy(String name) {
        return SchedulingPolicy.FCFS;
    }

    default boolean serves(String name) {
        return names().contains(name);
    }
}
