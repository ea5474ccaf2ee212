package dev.crucible.server.client;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * How a followed job's progress is shown: a live bar on a terminal ({@link TerminalJobProgress}), one line per
 * event otherwise ({@link PlainJobProgress}). Called from one thread, in event order.
 */
interface JobProgress extends AutoCloseable {

    /** A job event as the server lists it ({@code type}, {@code data}). */
    void event(JsonNode event);

    /** The job's status changed (QUEUED, RUNNING, or a final one). */
    void status(String status);

    /** The job ended: its final view, and the metrics of the checkpoint it made when it completed (may be empty). */
    void finished(JsonNode job, JsonNode checkpointMetrics);

    @Override
    void close();

    /** The gradient_step fields worth a glance, in the order shown. */
    String[] SHOWN = {"loss", "grad_norm", "learning_rate"};

    /** {@code step N/M  loss …  grad_norm …} for one gradient_step event's data. */
    static String stepLine(JsonNode data, long steps) {
        StringBuilder line = new StringBuilder("step ").append(data.path("gradient_step").asLong());
        if (steps > 0) {
            line.append('/').append(steps);
        }
        for (String name : SHOWN) {
            if (data.path(name).isNumber()) {
                line.append("  ").append(name).append(' ').append(String.format("%.4g", data.path(name).asDouble()));
            }
        }
        return line.toString();
    }
}
