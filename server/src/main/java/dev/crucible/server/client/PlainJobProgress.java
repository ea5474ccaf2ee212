package dev.crucible.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;

/** One line per event, status change and ending: what a log file or a pipe wants. */
final class PlainJobProgress implements JobProgress {

    private final PrintWriter out;
    private long steps;

    PlainJobProgress(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void started(long steps, JsonNode data) {
        this.steps = steps;
        JsonNode tokens = data.path("num_trainable_tokens");
        say("training started: " + steps + " gradient step(s)"
                + (tokens.isNumber() ? ", " + tokens.asLong() + " trainable tokens" : ""));
    }

    @Override
    public void step(JsonNode data) {
        say(JobProgress.stepLine(data, steps));
    }

    @Override
    public void other(JsonNode event) {
        JsonNode data = event.path("data");
        say(switch (event.path("type").asText()) {
            case "training_ended" -> "training ended: step " + data.path("step").asLong();
            case "training_failed" -> "training failed: " + data.path("error_message").asText();
            default -> event.path("type").asText() + " " + data;
        });
    }

    @Override
    public void status(String status) {
        say("status " + status);
    }

    @Override
    public void finished(JsonNode job, JsonNode checkpointMetrics) {
        say(FinalLine.of(job, checkpointMetrics));
    }

    @Override
    public void close() {
        out.flush();
    }

    private void say(String line) {
        out.println(line);
        out.flush();
    }
}
