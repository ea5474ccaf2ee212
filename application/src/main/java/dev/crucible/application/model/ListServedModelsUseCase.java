package dev.crucible.application.model;

import dev.crucible.domain.model.Model;
import dev.crucible.domain.tenancy.Caller;
import java.util.List;
import java.util.Map;

/** What a caller can chat with: the served base models and the caller's own trained models. */
public interface ListServedModelsUseCase {

    /**
     * @param engines    the engine serving each base model, by its name (a trained model runs on its base's)
     * @param scheduling each base model's scheduling policy, by its name (a trained model is scheduled by its base)
     */
    record Served(List<String> baseModels, List<Model> trainedModels, Map<String, String> engines,
            Map<String, SchedulingPolicy> scheduling) {
        public Served {
            baseModels = List.copyOf(baseModels);
            trainedModels = List.copyOf(trainedModels);
            engines = Map.copyOf(engines);
            scheduling = Map.copyOf(scheduling);
        }

        /** Models whose engines and policies are not known. */
        public Served(List<String> baseModels, List<Model> trainedModels) {
            this(baseModels, trainedModels, Map.of(), Map.of());
        }

        /** The scheduling policy of base model {@code name}: first come, first served unless known otherwise. */
        public SchedulingPolicy schedulingOf(String name) {
            return scheduling.getOrDefault(name, SchedulingPolicy.FCFS);
        }
    }

    Served list(Caller caller);
}
