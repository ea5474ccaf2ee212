package dev.crucible.adapters.http.model;

import dev.crucible.domain.model.Model;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/** A trained model on the wire. */
@Serdeable(naming = io.micronaut.serde.config.naming.SnakeCaseStrategy.class)
record ModelView(String id, String object, String entity, String project, String name, String baseModel,
        @Nullable String runId,
        String createdAt, int latestStep) {

    static ModelView of(Model m) {
        return new ModelView(m.id().toString(), "model", m.coordinates().entity().value(), m.coordinates().project(),
                m.coordinates().name(), m.baseModel(), null, m.createdAt().toString(), m.latestStep());
    }
}
