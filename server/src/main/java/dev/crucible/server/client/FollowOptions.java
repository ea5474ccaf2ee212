package dev.crucible.server.client;

import java.io.Console;
import java.io.PrintWriter;
import java.time.Duration;
import picocli.CommandLine.Option;

/** How a job is followed: how often the server is asked, and a bar or plain lines. */
public final class FollowOptions {

    @Option(names = "--interval-ms", defaultValue = "500", description = "How often to poll (${DEFAULT-VALUE} ms).")
    long intervalMs;

    @Option(names = "--plain", description = "One line per event even on a terminal (the default in a pipe).")
    boolean plain;

    /** Follows {@code jobId} to its end with the progress view that suits the output. */
    int follow(CrucibleClient client, String jobId, PrintWriter out) throws InterruptedException {
        Console console = System.console();
        boolean terminal = !plain && console != null && console.isTerminal();
        JobProgress progress = terminal ? new TerminalJobProgress(out) : new PlainJobProgress(out);
        return new JobFollower(client, Duration.ofMillis(Math.max(50, intervalMs))).follow(jobId, progress);
    }
}
