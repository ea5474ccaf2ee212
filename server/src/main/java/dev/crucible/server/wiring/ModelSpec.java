package dev.crucible.server.wiring;

import dev.crucible.application.model.SchedulingPolicy;
import dev.crucible.engine.spi.Precision;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One base model named on the command line or in configuration as {@code NAME=PATH}, with the precision a
 * {@code NAME=PRECISION} entry asks for (none: the engine's default) and the scheduling policy a
 * {@code NAME=fcfs|priority} entry sets (none: fcfs); {@link #parse} reads them all, in order.
 *
 * @param path       the model's folder
 * @param precision  the precision asked for, if any
 * @param scheduling how the model orders its waiting requests
 */
record ModelSpec(Path path, Optional<Precision> precision, SchedulingPolicy scheduling) {

    /** Specs without scheduling policies: every model first come, first served. */
    static Map<String, ModelSpec> parse(List<String> specs, List<String> precisions) {
        return parse(specs, precisions, List.of());
    }

    /**
     * Parses the specs, precisions and scheduling policies; a malformed or repeated one, or a precision or policy for
     * a model not configured, fails start-up with a message naming it.
     */
    static Map<String, ModelSpec> parse(List<String> specs, List<String> precisions, List<String> scheduling) {
        Map<String, Path> paths = new LinkedHashMap<>();
        pairs(specs, "NAME=PATH").forEach((name, path) -> paths.put(name,
                Path.of(path).toAbsolutePath().normalize()));
        Map<String, String> asked = served(pairs(precisions, "NAME=PRECISION"), paths, "a precision");
        Map<String, String> policies = served(pairs(scheduling, "NAME=POLICY"), paths, "a scheduling policy");
        Map<String, ModelSpec> models = new LinkedHashMap<>();
        paths.forEach((name, path) -> models.put(name, new ModelSpec(path,
                Optional.ofNullable(asked.get(name)).map(p -> precision(name, p)),
                Optional.ofNullable(policies.get(name)).map(p -> policy(name, p)).orElse(SchedulingPolicy.FCFS))));
        return models;
    }

    /** {@code entries}, each of which must name a served model. */
    private static Map<String, String> served(Map<String, String> entries, Map<String, Path> paths, String what) {
        entries.keySet().stream().filter(name -> !paths.containsKey(name)).findFirst().ifPresent(name -> {
            throw new IllegalArgumentException(what + " is given for model '" + name + "', which is not served");
        });
        return entries;
    }

    private static SchedulingPolicy policy(String model, String name) {
        return SchedulingPolicy.of(name).orElseThrow(() -> new IllegalArgumentException("model '" + model
                + "': scheduling policy must be fcfs or priority, got '" + name + "'"));
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
