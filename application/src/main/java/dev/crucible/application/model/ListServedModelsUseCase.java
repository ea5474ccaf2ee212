package dev.crucible.application.model;

import dev.crucible.domain.model.Model;
import dev.crucible.domain.tenancy.Caller;
import java.util.List;
import java.util.Map;

/** What a caller can chat with: the served base models and the caller's own trained models. */
public interface ListServedModelsUseCase {

    /** @param engines the engine serving each base model, by its name (a trained model runs on its base's) */
    record Served(List<String> baseModels, List<Model> trainedModels, Map<String, String> engines) {
        public Served {
            baseModels = List.copyOf(baseModels);
            trainedModels = List.copyOf(trainedModels);
            engines = Map.copyOf(engines);
        }

        /** Models whose engines are not known. */
        public Served(List<String> baseModels, List<Model> trainedModels) {
            this(baseModels, trainedModels, Map.of());
        }
    }

    Served list(Caller caller);
}
