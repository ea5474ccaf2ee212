package dev.crucible.application.model;

import dev.crucible.domain.tenancy.Caller;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** Joins the base-model catalog with the caller's trained models. */
public final class ListServedModelsService implements ListServedModelsUseCase {

    private final BaseModelCatalog baseModels;
    private final ModelStore models;

    public ListServedModelsService(BaseModelCatalog baseModels, ModelStore models) {
        this.baseModels = Objects.requireNonNull(baseModels, "baseModels");
        this.models = Objects.requireNonNull(models, "models");
    }

    @Override
    public Served list(Caller caller) {
        Map<String, String> engines = new LinkedHashMap<>();
        for (String name : baseModels.names()) {
            baseModels.engine(name).ifPresent(engine -> engines.put(name, engine));
        }
        return new Served(baseModels.names(), models.list(caller.entity()), engines);
    }
}
