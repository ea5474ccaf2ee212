package dev.crucible.adapters.http.job;

import dev.crucible.domain.job.JobStatus;
import dev.crucible.domain.job.TrainingJob;
import io.micronaut.serde.annotation.Serdeable;
import java.time.Instant;

/** A training job on the wire. */
@Serdeable(naming = io.micronaut.serde.config.naming.SnakeCaseStrategy.class)
record JobView(String id, String object, String type, String modelId, String status, String createdAt,
        String trainingStart, String trainingEnd, String errorMessage, Integer resultStep) {

    static JobView of(TrainingJob job) {
        Instant start = null;
        Instant end = null;
        String error = null;
        Integer step = null;
        switch (job.status()) {
            case JobStatus.Queued q -> { }
            case JobStatus.Running r -> start = r.startedAt();
            case JobStatus.Completed c -> {
                start = c.startedAt();
                end = c.endedAt();
                step = c.resultStep();
            }
            case JobStatus.Failed f -> {
                start = f.startedAt();
                end = f.endedAt();
                error = f.errorMessage();
            }
            case JobStatus.Cancelled c -> {
                start = c.startedAt();
                end = c.endedAt();
                error = c.reason();
            }
        }
        return new JobView(job.id().toString(), "training_job", job.type().wireName(), job.modelId().toString(),
                job.status().wireName(), job.createdAt().toString(), text(start), text(end), error, step);
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }
}
