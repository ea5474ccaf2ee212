package dev.crucible.server.wiring;

import dev.crucible.engine.spi.Precision;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One base model named on the command line or in configuration as {@code NAME=PATH}, with the precision a
 * {@code NAME=PRECISION} entry asks for (none: the engine's default); {@link #parse} reads them all, in order.
 *
 * @param path      the model's folder
 * @param precision the precision asked for, if any
 */
record ModelSpec(Path path, Optional<Precision> precision) {

    /**
     * Parses the specs and precisions; a malformed or repeated one, or a precision for a model not configured, fails
     * start-up with a message naming it.
     */
    static Map<String, ModelSpec> parse(List<String> specs, List<String> precisions) {
        Map<String, Path> paths = new LinkedHashMap<>();
        pairs(specs, "NAME=PATH").forEach((name, path) -> paths.put(name,
                Path.of(path).toAbsolutePath().normalize()));
        Map<String, String> asked = pairs(precisions, "NAME=PRECISION");
        asked.keySet().stream().filter(name -> !paths.containsKey(name)).findFirst().ifPresent(name -> {
            throw new IllegalArgumentException("a precision is given for model '" + name + "', which is not served");
        });
        Map<String, ModelSpec> models = new LinkedHashMap<>();
        paths.forEach((name, path) -> models.put(name, new ModelSpec(path,
                Optional.ofNullable(asked.get(name)).map(p -> precision(name, p)))));
        return models;
    }

    private static Precision precision(String model, String label) {
        try {
            return Precision.of(label);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("model '" + model + "': " + e.getMessage(), e);
        }
    }

    private static Map<String, String> pairs(List<String> entries, String shape) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String entry : entries == null ? List.<String>of() : entries) {
            int eq = entry.indexOf('=');
            if (eq <= 0 || eq == entry.length() - 1) {
                throw new IllegalArgumentException("expected " + shape + ", got '" + entry + "'");
            }
            String name = entry.substring(0, eq).strip();
            if (pairs.put(name, entry.substring(eq + 1).strip()) != null) {
                throw new IllegalArgumentException("model '" + name + "' is configured twice");
            }
        }
        return pairs;
    }
}
