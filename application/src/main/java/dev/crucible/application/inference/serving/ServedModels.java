package dev.crucible.application.inference.serving;

import dev.crucible.application.model.BaseModelCatalog;
import dev.crucible.application.model.SchedulingPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The base models this process serves, loaded at start-up and closed at shutdown; a model whose generation failed
 * ({@link #failures()}) can be reloaded in its place ({@link #reload}). Thread-safe: readers see either the old or
 * the reloaded model, never none.
 */
public final class ServedModels implements BaseModelCatalog, AutoCloseable {

    /** How a model is loaded again: the same folder, engine and settings it was first loaded with. */
    @FunctionalInterface
    public interface Reloader {

        /**
         * A fresh copy of {@code failed} (its own runner, tokenizer and generator); {@code failed} is left as it is.
         *
         * @throws RuntimeException when the model cannot be loaded now
         */
        ServedModel reload(ServedModel failed);
    }

    private static final Logger LOG = Logger.getLogger(ServedModels.class.getName());

    private final Map<String, ServedModel> byName = new LinkedHashMap<>();
    private final Reloader reloader;

    /** Models that cannot be reloaded: a failed one stays failed (and {@link #failures()} says so). */
    public ServedModels(List<ServedModel> models) {
        this(models, null);
    }

    /**
     * @param models   the loaded models, in configuration order; names must be distinct
     * @param reloader how {@link #reload} loads a model again; null when none can be
     */
    public ServedModels(List<ServedModel> models, Reloader reloader) {
        this.reloader = reloader;
        for (ServedModel model : models) {
            if (byName.put(model.name(), model) != null) {
                throw new IllegalArgumentException("model '" + model.name() + "' is configured twice");
            }
        }
    }

    @Override
    public synchronized List<String> names() {
        return List.copyOf(byName.keySet());
    }

    @Override
    public Optional<String> engine(String name) {
        return find(name).map(ServedModel::engine);
    }

    @Override
    public SchedulingPolicy schedulingPolicy(String name) {
        return find(name).map(ServedModel::scheduling).orElse(SchedulingPolicy.FCFS);
    }

    public synchronized Optional<ServedModel> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The model a request without a model name goes to: the first configured, as vLLM's default served model. */
    public synchronized Optional<ServedModel> defaultModel() {
        return byName.values().stream().findFirst();
    }

    /** The models that no longer serve, by name, each with why (its generator's failure); empty when all serve. */
    public synchronized Map<String, String> failures() {
        Map<String, String> failed = new LinkedHashMap<>();
        byName.forEach((name, model) -> model.generator().failure().ifPresent(why -> failed.put(name, why)));
        return failed;
    }

    /** Whether {@link #reload} can load a model again. */
    public boolean reloadable() {
        return reloader != null;
    }

    /**
     * Loads the model named {@code name} again and puts it in place of the old one, then closes the old one (its
     * waiting requests fail as not ready); a failure to close it is logged, not thrown. Requests that resolve the
     * model from then on get the new one. {@code replaced} runs right after the swap, before the old one closes.
     *
     * @throws IllegalStateException when no reloader was given, or no model has that name
     * @throws RuntimeException      when loading fails; the old model then stays in place
     */
    public void reload(String name, Runnable replaced) {
        if (reloader == null) {
            throw new IllegalStateException("served models cannot be reloaded here");
        }
        ServedModel old = find(name).orElseThrow(() -> new IllegalStateException("no model '" + name + "'"));
        ServedModel fresh = Objects.requireNonNull(reloader.reload(old), "reloaded model");
        synchronized (this) {
            byName.put(name, fresh);
        }
        replaced.run();
        try {
            old.close();
        } catch (Throwable e) {
            LOG.log(Level.WARNING, "the replaced copy of model " + name + " did not close cleanly", e);
        }
    }

    @Override
    public void close() {
        List<RuntimeException> failures = new ArrayList<>();
        List<ServedModel> models;
        synchronized (this) {
            models = List.copyOf(byName.values());
        }
        for (ServedModel model : models) {
            try {
                model.close();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        if (!failures.isEmpty()) {
            IllegalStateException failure = new IllegalStateException("some models did not close cleanly");
            failures.forEach(failure::addSuppressed);
            throw failure;
        }
    }
}
