package dev.crucible.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A live progress bar on standard error (as tqdm draws one): gradient steps done of the job's total, the rate,
 * the time left, and the last step's loss. Status changes before training starts, and the ending, are lines.
 */
final class TerminalJobProgress implements JobProgress {

    private final PrintWriter out;
    private ProgressBar bar;

    TerminalJobProgress(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void started(long steps, JsonNode data) {
        start(steps);
    }

    @Override
    public void step(JsonNode data) {
        start(0);
        bar.stepTo(data.path("gradient_step").asLong());
        bar.setExtraMessage(JobProgress.numbers(data).strip());
    }

    @Override
    public void other(JsonNode event) {
        // training_ended / training_failed: the final line says it
    }

    @Override
    public void status(String status) {
        if (bar == null) {
            out.println("status " + status);
            out.flush();
        }
    }

    @Override
    public void finished(JsonNode job, JsonNode checkpointMetrics) {
        close();
        out.println(FinalLine.of(job, checkpointMetrics));
        out.flush();
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }

    private void start(long steps) {
        if (bar == null) {
            bar = new ProgressBarBuilder().setTaskName("training").setInitialMax(steps > 0 ? steps : -1)
                    .setStyle(ProgressBarStyle.UNICODE_BLOCK).setUnit(" steps", 1)
                    .setUpdateIntervalMillis(200).showSpeed().build();
        }
    }
}
