package dev.crucible.server.wiring;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The base models named on the command line or in configuration as {@code NAME=PATH}, in order. */
final class ModelSpecs {

    private ModelSpecs() {
    }

    /** Parses the specs; a malformed or repeated one fails start-up with a message naming it. */
    static Map<String, Path> parse(List<String> specs) {
        Map<String, Path> models = new LinkedHashMap<>();
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            if (eq <= 0 || eq == spec.length() - 1) {
                throw new IllegalArgumentException("a model must be given as NAME=PATH, got '" + spec + "'");
            }
            String name = spec.substring(0, eq).strip();
            Path path = Path.of(spec.substring(eq + 1).strip()).toAbsolutePath().normalize();
            if (models.put(name, path) != null) {
                throw new IllegalArgumentException("model '" + name + "' is configured twice");
            }
        }
        return models;
    }
}
