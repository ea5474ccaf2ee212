package dev.crucible.server.wiring;

import dev.crucible.engine.spi.Capability;
import dev.crucible.engine.spi.EngineProvider;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which installed engine serves base models (training is chosen apart, by the TRAINING capability): the one named by
 * {@code crucible.inference-engine} ({@code --inference-engine}, env {@code CRUCIBLE_INFERENCE_ENGINE}), else the
 * engines that can run inference in a declared order, tried in turn for each model. The order is {@link #PRIORITY},
 * not ServiceLoader's: fastest first, so onnx (ONNX Runtime decodes several times faster than DJL on the CPU, see
 * {@code bench/run}), then djl for what onnx cannot load; engines not named there come last, by name.
 */
final class InferenceEngines {

    /** The default serving order by engine name. */
    static final List<String> PRIORITY = List.of("onnx", "djl");

    private static final Logger LOG = LoggerFactory.getLogger(InferenceEngines.class);

    private InferenceEngines() {
    }

    /**
     * The engines to try, best first; the choice is logged with each engine's capabilities.
     *
     * @throws IllegalArgumentException when the configured engine is not installed or cannot run inference, naming
     *                                  the ones that can; or when none can
     */
    static List<EngineProvider> order(List<EngineProvider> installed, String configured) {
        List<EngineProvider> capable = installed.stream()
                .filter(e -> e.capabilities().contains(Capability.INFERENCE))
                .sorted(Comparator.comparingInt(InferenceEngines::rank).thenComparing(EngineProvider::name))
                .toList();
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

    /** The engine's place in {@link #PRIORITY}; engines not named there come after all that are. */
    static int rank(EngineProvider engine) {
        int at = PRIORITY.indexOf(engine.name());
        return at < 0 ? PRIORITY.size() : at;
    }
}
