package dev.crucible.application.model;

import java.nio.file.Path;
import java.util.Optional;

/** Whether a PEFT adapter folder can be served over a base model, read as the engines read adapters. */
public interface AdapterCheck {

    /**
     * Empty when {@code folder} loads over {@code baseModel}; else what is wrong with it, naming the file, key or
     * tensor at fault and never a server path.
     */
    Optional<String> problem(String baseModel, Path folder);
}
