package dev.crucible.server.wiring;

import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineProvider;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The installed engine plugins, found with {@link ServiceLoader}, and which of them serves and trains. An engine named
 * in configuration must be installed, or start-up fails listing the installed ones; the choice is logged. Base models
 * are served by the engine named by {@code crucible.inference-engine} ({@code --inference-engine}, env
 * {@code CRUCIBLE_INFERENCE_ENGINE}), else by the engines that can run inference in the order of the ranks they
 * declare ({@link EngineProvider#rank()}), tried in turn for each model; training runs on the best-ranked engine that
 * can train. Never ServiceLoader's order.
 */
final class Engines {

    /** Best rank first, ties by name. */
    static final Comparator<EngineProvider> BY_RANK = Comparator.comparingInt(EngineProvider::rank)
            .thenComparing(EngineProvider::name);

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

    /**
     * The engines to serve base models with, best first; the choice is logged with each engine's capabilities.
     *
     * @throws IllegalArgumentException when the configured engine is not installed or cannot run inference, naming
     *                                  the ones that can; or when none can
     */
    static List<EngineProvider> inference(List<EngineProvider> installed, String configured) {
        List<EngineProvider> capable = installed.stream()
                .filter(e -> e.capabilities().contains(Capability.INFERENCE)).sorted(BY_RANK).toList();
        String names = capable.stream().map(EngineProvider::name).collect(Collectors.joining(", "));
        if (configured != null && !configured.isBlank()) {
            List<EngineProvider> chosen = capable.stream().filter(e -> e.name().equals(configured.strip())).toList();
            if (chosen.isEmpty()) {
                throw new IllegalArgumentException("inference engine '" + configured.strip() + "' is not installed "
                        + "or cannot run inference; engines that can: " + (names.isEmpty() ? "none" : names));
            }
            LOG.info("Inference engine chosen by configuration: {} {}", chosen.getFirst().name(),
                    chosen.getFirst().capabilities());
            return chosen;
        }
        if (capable.isEmpty()) {
            throw new IllegalArgumentException("no installed engine has the " + Capability.INFERENCE + " capability");
        }
        LOG.info("Inference engines in order of preference: {}", capable.stream()
                .map(e -> e.name() + " " + e.capabilities()).collect(Collectors.joining(", ")));
        return capable;
    }

    /** The best-ranked installed engine that can train; empty when none can. */
    static Optional<EngineProvider> training(List<EngineProvider> installed) {
        return installed.stream().filter(e -> e.capabilities().contains(Capability.TRAINING)).min(BY_RANK);
    }
}
