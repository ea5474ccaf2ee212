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
    public void event(JsonNode event) {
        JsonNode data = event.path("data");
        switch (event.path("type").asText()) {
            case "training_started" -> {
                steps = data.path("num_gradient_steps").asLong();
                say("training started: " + steps + " gradient step(s), "
                        + data.path("num_trainable_tokens").asLong() + " trainable tokens");
            }
            case "gradient_step" -> say(JobProgress.stepLine(data, steps));
            case "training_ended" -> say("training ended: step " + data.path("step").asLong());
            case "training_failed" -> say("training failed: " + data.path("error_message").asText());
            default -> say(event.path("type").asText() + " " + data);
        }
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
