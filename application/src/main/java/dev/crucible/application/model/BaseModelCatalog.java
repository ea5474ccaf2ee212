package dev.crucible.application.model;

import java.util.List;

/** The base models this server is configured to serve, by name. Immutable after start-up. */
public interface BaseModelCatalog {

    /** Names of the served base models, in configuration order. */
    List<String> names();

    default boolean serves(String name) {
        return names().contains(name);
    }
}
