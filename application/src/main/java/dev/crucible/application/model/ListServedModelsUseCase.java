package dev.crucible.application.model;

import dev.crucible.domain.model.Model;
import dev.crucible.domain.tenancy.Caller;
import java.util.List;

/** What a caller can chat with: the served base models and the caller's own trained models. */
public interface ListServedModelsUseCase {

    record Served(List<String> baseModels, List<Model> trainedModels) {
        public Served {
            baseModels = List.copyOf(baseModels);
            trainedModels = List.copyOf(trainedModels);
        }
    }

    Served list(Caller caller);
}
