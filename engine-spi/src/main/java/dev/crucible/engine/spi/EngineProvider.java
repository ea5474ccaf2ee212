package dev.crucible.engine.spi;

import java.util.Set;

/**
 * An engine plugin, found with {@link java.util.ServiceLoader} through one {@code META-INF/services} line.
 *
 * <p>Contract: construction is cheap and side-effect free (no native loading, no network); {@link #name()} is a
 * stable lower-case identifier the configuration can name; {@link #capabilities()} is fixed for the life of the
 * process. Implementations are thread-safe.
 */
public interface EngineProvider {

    /** Stable identifier, e.g. {@code djl}; unique among installed providers. */
    String name();

    /** What this engine can do on this machine; never null, may be empty when its runtime is missing. */
    Set<Capability> capabilities();

    /**
     * Checks that the engine is usable now.
     *
     * @return the health; {@link EngineHealth#healthy()} when usable
     */
    EngineHealth health();
}
