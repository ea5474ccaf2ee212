package dev.crucible.server.wiring;

import dev.crucible.engine.spi.EngineProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The installed engine plugins, found with {@link ServiceLoader}. An engine named in configuration must be
 * installed, or start-up fails listing the installed ones; the choice is logged.
 */
final class Engines {

    private static final Logger LOG = LoggerFactory.getLogger(Engines.class);

    private Engines() {
    }

    static List<EngineProvider> load(String configured) {
        List<EngineProvider> installed = new ArrayList<>();
        ServiceLoader.load(EngineProvider.class).forEach(installed::add);
        String names = installed.stream().map(EngineProvider::name).collect(Collectors.joining(", "));
        if (configured != null && !configured.isBlank()) {
            List<EngineProvider> chosen = installed.stream().filter(e -> e.name().equals(configured)).toList();
            if (chosen.isEmpty()) {
                throw new IllegalArgumentException("engine '" + configured + "' is not installed; installed engines: "
                        + (names.isEmpty() ? "none" : names));
            }
            LOG.info("Engine chosen by configuration: {} {}", configured, chosen.getFirst().capabilities());
            return chosen;
        }
        LOG.info("Installed engines: {}", names.isEmpty() ? "none" : installed.stream()
                .map(e -> e.name() + " " + e.capabilities()).collect(Collectors.joining(", ")));
        return installed;
    }
}
