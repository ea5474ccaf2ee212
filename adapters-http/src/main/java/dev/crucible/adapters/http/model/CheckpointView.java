package dev.crucible.adapters.http.model;

import dev.crucible.domain.model.Checkpoint;
import io.micronaut.serde.annotation.Serdeable;
import java.util.Map;

/** A checkpoint on the wire: {@code {id, object, step, metrics, created_at}}. */
@Serdeable(naming = io.micronaut.serde.config.naming.SnakeCaseStrategy.class)
record CheckpointView(String id, String object, int step, Map<String, Double> metrics, String createdAt) {

    static CheckpointView of(Checkpoint c) {
        return new CheckpointView(c.id().toString(), "checkpoint", c.step(), c.metrics(), c.createdAt().toString());
    }
}
