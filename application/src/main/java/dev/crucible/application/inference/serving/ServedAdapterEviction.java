package dev.crucible.application.inference.serving;

import dev.crucible.application.process.CatalogChange;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What this process drops when another one (or itself) removes a checkpoint or a model: the adapters it has loaded
 * from that checkpoint's folder, or from any folder of that model. Nothing needs doing for an added checkpoint: a
 * request names a checkpoint and is resolved against the database every time, so a new one is served from the moment
 * its row commits. Adapter folders are named by the model id and {@code step-<N>} (the adapter store's layout).
 */
public final class ServedAdapterEviction implements Consumer<CatalogChange> {

    private final AdapterCache cache;

    public ServedAdapterEviction(AdapterCache cache) {
        this.cache = Objects.requireNonNull(cache, "cache");
    }

    @Override
    public void accept(CatalogChange change) {
        if (!change.removal()) {
            return;
        }
        String model = change.model().value().toString();
        String step = change.step().isPresent() ? "step-" + change.step().getAsInt() : null;
        cache.forgetWhere(folder -> contains(folder, model) && (step == null || contains(folder, step)));
    }

    private static boolean contains(Path folder, String name) {
        for (Path part : folder) {
            if (part.toString().equals(name)) {
                return true;
            }
        }
        return false;
    }
}
