package dev.crucible.application.inference.serving;

import dev.crucible.domain.model.ModelId;
import dev.crucible.engine.spi.LoraAdapter;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * LoRA adapters loaded on demand and kept for reuse, least recently used first out. An adapter is only closed when
 * no request holds a lease on it, so the cache may briefly exceed its capacity while many are in use. Thread-safe.
 */
public final class AdapterCache implements AutoCloseable {

    /** A request's hold on an adapter; closing it lets the cache evict the adapter again. */
    public interface Lease extends AutoCloseable {
        LoraAdapter adapter();

        @Override
        void close();
    }

    private record Key(String model, ModelId source, int step, Path folder) {
    }

    private static final class Entry {
        final LoraAdapter adapter;
        int leases;
        /** Dropped by {@link #forget}: closed when its last lease closes, never handed out again. */
        boolean forgotten;

        Entry(LoraAdapter adapter) {
            this.adapter = adapter;
        }
    }

    private final int capacity;
    private final Map<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);

    /** @param capacity the adapters kept when none is in use; at least 1 */
    public AdapterCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** Leases the adapter of {@code source} for {@code model}, loading it into the model's runner if needed. */
    public Lease acquire(ServedModel model, AdapterSource source) {
        Objects.requireNonNull(model, "model");
        return acquire(model.name(), source, model.runner()::loadAdapter);
    }

    /** Leases the adapter of {@code source} for the model named {@code model}, loading it with {@code loader}. */
    public synchronized Lease acquire(String model, AdapterSource source, Function<Path, LoraAdapter> loader) {
        Key key = new Key(model, source.model(), source.step(), source.folder().toAbsolutePath().normalize());
        Entry entry = entries.get(key);
        if (entry == null) {
            entry = new Entry(loader.apply(key.folder()));
            entries.put(key, entry);
        }
        entry.leases++;
        Entry held = entry;
        evict();
        return new Lease() {
            private boolean closed;

            @Override
            public LoraAdapter adapter() {
                return held.adapter;
            }

            @Override
            public void close() {
                synchronized (AdapterCache.this) {
                    if (!closed) {
                        closed = true;
                        held.leases--;
                        if (held.forgotten && held.leases == 0) {
                            closeQuietly(held.adapter);
                        }
                        evict();
                    }
                }
            }
        };
    }

    /**
     * Drops every adapter loaded for the model named {@code model}, whose runner was replaced (the model was
     * reloaded): the next request loads its adapter into the new runner. An adapter still leased is closed when its
     * last lease closes; closing one that belonged to a broken runner may fail, which is ignored.
     */
    public synchronized void forget(String model) {
        forgetKeys(key -> key.model().equals(model));
    }

    /**
     * Drops every adapter loaded from checkpoint {@code step} of {@code checkpointsOf}, or from any of its checkpoints
     * when {@code step} is empty (the checkpoint or the model was deleted, perhaps by another process): it is never
     * handed out again, and closed once its last lease closes.
     */
    public synchronized void forget(ModelId checkpointsOf, OptionalInt step) {
        Objects.requireNonNull(checkpointsOf, "checkpointsOf");
        forgetKeys(key -> key.source().equals(checkpointsOf)
                && (step.isEmpty() || key.step() == step.getAsInt()));
    }

    private void forgetKeys(Predicate<Key> which) {
        Iterator<Map.Entry<Key, Entry>> all = entries.entrySet().iterator();
        while (all.hasNext()) {
            Map.Entry<Key, Entry> next = all.next();
            if (which.test(next.getKey())) {
                all.remove();
                next.getValue().forgotten = true;
                if (next.getValue().leases == 0) {
                    closeQuietly(next.getValue().adapter);
                }
            }
        }
    }

    private static void closeQuietly(LoraAdapter adapter) {
        try {
            adapter.close();
        } catch (RuntimeException ignored) {
            // the adapter belonged to a runner that was replaced, perhaps because it broke; it is gone either way
        }
    }

    /** How many adapters are loaded now. */
    public synchronized int size() {
        return entries.size();
    }

    private void evict() {
        Iterator<Entry> oldestFirst = entries.values().iterator();
        while (entries.size() > capacity && oldestFirst.hasNext()) {
            Entry candidate = oldestFirst.next();
            if (candidate.leases == 0) {
                oldestFirst.remove();
                candidate.adapter.close();
            }
        }
    }

    @Override
    public synchronized void close() {
        entries.values().forEach(e -> e.adapter.close());
        entries.clear();
    }
}
