package dev.crucible.adapters.http.job;

import dev.crucible.domain.job.JobEvent;
import io.micronaut.serde.annotation.Serdeable;
import java.util.Map;

/** A job event on the wire: {@code {id, object, type, data, created_at}}. */
@Serdeable(naming = io.micronaut.serde.config.naming.SnakeCaseStrategy.class)
record JobEventView(String id, String object, String type, Map<String, Object> data, String createdAt) {

    static JobEventView of(JobEvent e) {
        return new JobEventView(e.id().toString(), "training_job.event", e.type().wireName(), e.data(),
                e.createdAt().toString());
    }
}
