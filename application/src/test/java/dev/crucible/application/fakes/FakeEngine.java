package dev.crucible.application.fakes;

import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineHealth;
import dev.crucible.engine.spi.EngineProvider;
import java.util.EnumSet;
import java.util.Set;

/** An engine plugin with fixed capabilities and health. */
public record FakeEngine(String name, Set<Capability> capabilities, EngineHealth health) implements EngineProvider {

    public FakeEngine {
        capabilities = capabilities.isEmpty() ? EnumSet.noneOf(Capability.class) : EnumSet.copyOf(capabilities);
    }

    public static FakeEngine healthy(String name, Capability... capabilities) {
        return new FakeEngine(name, Set.of(capabilities), EngineHealth.healthy());
    }

    public static FakeEngine sick(String name, String why, Capability... capabilities) {
        return new FakeEngine(name, Set.of(capabilities), EngineHealth.unhealthy(why));
    }
}
