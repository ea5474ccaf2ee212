package dev.crucible.application.inference.serving;

import dev.crucible.application.process.CatalogChange;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * What this process drops when another one (or itself) removes a checkpoint or a model: the adapters it has loaded
 * from that checkpoint, or from any checkpoint of that model. Nothing needs doing for an added checkpoint: a request
 * names a checkpoint and is resolved against the database every time, so a new one is served from the moment its row
 * commits.
 */
public final class ServedAdapterEviction implements Consumer<CatalogChange> {

    private final AdapterCache cache;

    public ServedAdapterEviction(AdapterCache cache) {
        this.cache = Objects.requireNonNull(cache, "cache");
    }

    @Override
    public void accept(CatalogChange change) {
        if (change.removal()) {
            cache.forget(change.model(), change.step());
        }
    }
}
