package dev.crucible.server.client;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * How a followed job's progress is shown: a live bar on a terminal ({@link TerminalJobProgress}), one line per
 * event otherwise ({@link PlainJobProgress}). Called from one thread, in event order.
 */
interface JobProgress extends AutoCloseable {

    /** A job event as the server lists it ({@code type}, {@code data}), handed to the method for its type. */
    default void event(JsonNode event) {
        JsonNode data = event.path("data");
        switch (event.path("type").asText()) {
            case "training_started" -> started(data.path("num_gradient_steps").asLong(), data);
            case "gradient_step" -> step(data);
            default -> other(event);
        }
    }

    /** Training started with {@code steps} gradient steps ahead. */
    void started(long steps, JsonNode data);

    /** One gradient step's numbers. */
    void step(JsonNode data);

    /** Any other event ({@code training_ended}, {@code training_failed}, or one this client does not know). */
    void other(JsonNode event);

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
        return "step " + data.path("gradient_step").asLong() + (steps > 0 ? "/" + steps : "") + numbers(data);
    }

    /** {@code   loss …  grad_norm …  learning_rate …}: the {@link #SHOWN} fields the data holds. */
    static String numbers(JsonNode data) {
        StringBuilder line = new StringBuilder();
        for (String name : SHOWN) {
            if (data.path(name).isNumber()) {
                line.append("  ").append(name).append(' ').append(String.format("%.4g", data.path(name).asDouble()));
            }
        }
        return line.toString();
    }
}
