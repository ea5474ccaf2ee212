package dev.crucible.application.model;

import dev.crucible.domain.tenancy.Caller;
import java.util.LinkedHashMap;
import java.util.Map;

/** Joins the base-model catalog with the caller's trained models. */
public record ListServedModelsService(BaseModelCatalog baseModels, ModelStore models)
        implements ListServedModelsUseCase {

    @Override
    public Served list(Caller caller) {
        Map<String, String> engines = new LinkedHashMap<>();
        Map<String, SchedulingPolicy> scheduling = new LinkedHashMap<>();
        for (String name : baseModels.names()) {
            baseModels.engine(name).ifPresent(engine -> engines.put(name, engine));
            scheduling.put(name, baseModels.schedulingPolicy(name));
        }
        return new Served(baseModels.names(), models.list(caller.entity()), engines, scheduling);
    }
}
