package dev.crucible.application.primitives;

import java.util.List;

/** {@code get_server_capabilities}: the base models a training run may be created on. */
public interface ServerCapabilitiesUseCase {

    /** A served base model and its context length in tokens. */
    record BaseModel(String name, int maxContextLength) {
    }

    List<BaseModel> baseModels();
}
