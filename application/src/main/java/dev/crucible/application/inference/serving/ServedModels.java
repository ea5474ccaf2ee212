package dev.crucible.application.inference.serving;

import dev.crucible.application.model.BaseModelCatalog;
import dev.crucible.application.model.SchedulingPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The base models this process serves, loaded at start-up and closed at shutdown. Immutable; thread-safe. */
public final class ServedModels implements BaseModelCatalog, AutoCloseable {

    private final Map<String, ServedModel> byName = new LinkedHashMap<>();

    /** @param models the loaded models, in configuration order; names must be distinct */
    public ServedModels(List<ServedModel> models) {
        for (ServedModel model : models) {
            if (byName.put(model.name(), model) != null) {
                throw new IllegalArgumentException("model '" + model.name() + "' is configured twice");
            }
        }
    }

    @Override
    public List<String> names() {
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

    public Optional<ServedModel> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The model a request without a model name goes to: the first configured, as vLLM's default served model. */
    public Optional<ServedModel> defaultModel() {
        return byName.values().stream().findFirst();
    }

    @Override
    public void close() {
        List<RuntimeException> failures = new ArrayList<>();
        for (ServedModel model : byName.values()) {
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
