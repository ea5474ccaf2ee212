package dev.crucible.adapters.http.job;

import dev.crucible.domain.job.JobStatus;
import dev.crucible.domain.job.TrainingJob;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import java.time.Instant;

/** A training job on the wire. */
@Serdeable(naming = io.micronaut.serde.config.naming.SnakeCaseStrategy.class)
record JobView(String id, String object, String type, String modelId, String status, String createdAt,
        @Nullable String trainingStart, @Nullable String trainingEnd, @Nullable String errorMessage,
        @Nullable Integer resultStep) {

    static JobView of(TrainingJob job) {
        JobStatus status = job.status();
        return new JobView(job.id().toString(), "training_job", job.type().wireName(), job.modelId().toString(),
                status.wireName(), job.createdAt().toString(), status.start().map(Instant::toString).orElse(null),
                status.end().map(Instant::toString).orElse(null), status.error().orElse(null),
                status.step().isPresent() ? status.step().getAsInt() : null);
    }
}
