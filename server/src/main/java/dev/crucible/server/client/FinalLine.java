package dev.crucible.server.client;

import com.fasterxml.jackson.databind.JsonNode;

/** The one line that ends a followed job, the same on a terminal and in a pipe. */
final class FinalLine {

    /** Checkpoint metrics shown at the end when present: RL's reward first, then the losses. */
    private static final String[] METRICS = {"train/reward", "train/reward_std_dev", "loss/train"};

    private FinalLine() {
    }

    static String of(JsonNode job, JsonNode checkpointMetrics) {
        String status = job.path("status").asText();
        StringBuilder line = new StringBuilder(status.toLowerCase(java.util.Locale.ROOT));
        if (job.path("result_step").isNumber()) {
            line.append(": step ").append(job.path("result_step").asLong());
        }
        for (String name : METRICS) {
            if (checkpointMetrics.path(name).isNumber()) {
                line.append("  ").append(name).append(' ')
                        .append(String.format("%.4g", checkpointMetrics.path(name).asDouble()));
            }
        }
        if (job.path("error_message").isTextual()) {
            line.append(": ").append(job.path("error_message").asText());
        }
        return line.toString();
    }
}
