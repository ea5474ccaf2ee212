package dev.crucible.server;

import dev.crucible.server.cli.CrucibleCommand;
import dev.crucible.server.client.ClientErrors;
import picocli.CommandLine;

/** The single deployable's entry point. */
public final class Crucible {

    private Crucible() {
    }

    public static void main(String[] args) {
        int code = commandLine().execute(args);
        if (code != 0 || args.length == 0 || !"serve".equals(args[0])) {
            System.exit(code);
        }
    }

    /** The {@code crucible} command line that {@link #main} runs: every command, with the client's error handling. */
    public static CommandLine commandLine() {
        return new CommandLine(new CrucibleCommand()).setExecutionExceptionHandler(new ClientErrors());
    }
}
