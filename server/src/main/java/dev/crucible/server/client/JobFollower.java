package dev.crucible.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Set;

/**
 * Follows a training job until it ends: reads its events page by page from the last seen id (so none is shown
 * twice or missed), reports status changes (a final one after the job's last event), and at the end the job and
 * its new checkpoint's metrics.
 */
final class JobFollower {

    private static final Set<String> FINAL = Set.of("COMPLETED", "FAILED", "CANCELLED");

    private final CrucibleClient client;
    private final Duration interval;

    JobFollower(CrucibleClient client, Duration interval) {
        this.client = client;
        this.interval = interval;
    }

    /** Blocks until the job ends; returns {@link ExitCodes#OK} when it completed, else {@link ExitCodes#JOB_FAILED}. */
    int follow(String jobId, JobProgress progress) throws InterruptedException {
        String path = "/v1/preview/training-jobs/" + Paths.segment(jobId);
        String after = null;
        String status = null;
        try (progress) {
            while (true) {
                JsonNode job = client.get(path);
                String now = job.path("status").asText();
                boolean ended = FINAL.contains(now);
                if (!ended && !now.equals(status)) {
                    status = now;
                    progress.status(status);
                }
                // A job ends after its last event is written: the events read after this view include them all,
                // so the final status is told after every one of them.
                after = client.forEachItem(path + "/events", after, progress::event);
                if (ended) {
                    progress.status(now);
                    progress.finished(job, checkpointMetrics(job));
                    return now.equals("COMPLETED") ? ExitCodes.OK : ExitCodes.JOB_FAILED;
                }
                Thread.sleep(interval);
            }
        }
    }


    /** The metrics of the checkpoint a completed job made: found by the job's result step. */
    private JsonNode checkpointMetrics(JsonNode job) {
        if (!job.path("result_step").isNumber()) {
            return CrucibleClient.json().createObjectNode();
        }
        long step = job.path("result_step").asLong();
        JsonNode page = client.get(CrucibleClient.query("/v1/preview/models/" + Paths.segment(job.path("model_id")
                .asText()) + "/checkpoints", "limit", "5", "order", "desc"));
        for (JsonNode checkpoint : page.path("data")) {
            if (checkpoint.path("step").asLong() == step) {
                return checkpoint.path("metrics");
            }
        }
        return CrucibleClient.json().createObjectNode();
    }
}
