package dev.crucible.application.primitives;

import dev.crucible.application.inference.serving.ServedModels;
import java.util.List;

/** The served models, in configuration order; see {@link ServerCapabilitiesUseCase}. */
public record ServerCapabilitiesService(ServedModels served) implements ServerCapabilitiesUseCase {

    @Override
    public List<BaseModel> baseModels() {
        return served.names().stream().flatMap(name -> served.find(name).stream())
                .map(m -> new BaseModel(m.name(), m.maxModelLen())).toList();
    }
}
