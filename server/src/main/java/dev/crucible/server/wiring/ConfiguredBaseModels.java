package dev.crucible.server.wiring;

import dev.crucible.application.model.BaseModelCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The base models named on the command line or in configuration as {@code NAME=PATH}, each a Hugging Face
 * model folder. A missing folder or {@code config.json} fails start-up with a message naming it.
 */
final class ConfiguredBaseModels implements BaseModelCatalog {

    private final Map<String, Path> models = new LinkedHashMap<>();

    ConfiguredBaseModels(List<String> specs) {
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            if (eq <= 0 || eq == spec.length() - 1) {
                throw new IllegalArgumentException("a model must be given as NAME=PATH, got '" + spec + "'");
            }
            String name = spec.substring(0, eq).strip();
            Path path = Path.of(spec.substring(eq + 1).strip()).toAbsolutePath().normalize();
            if (!Files.isRegularFile(path.resolve("config.json"))) {
                throw new IllegalArgumentException("model '" + name + "': " + path
                        + " is not a Hugging Face model folder (no config.json)");
            }
            if (models.put(name, path) != null) {
                throw new IllegalArgumentException("model '" + name + "' is configured twice");
            }
        }
    }

    @Override
    public List<String> names() {
        return List.copyOf(models.keySet());
    }

    /** The folder of base model {@code name}. */
    Path folder(String name) {
        return models.get(name);
    }
}
