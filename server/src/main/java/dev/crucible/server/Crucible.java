package dev.crucible.server;

import dev.crucible.server.cli.CrucibleCommand;
import dev.crucible.server.client.ClientErrors;
import picocli.CommandLine;

/** The single deployable's entry point. */
public final class Crucible {

    private Crucible() {
    }

    public static void main(String[] args) {
        int code = new CommandLine(new CrucibleCommand()).setExecutionExceptionHandler(new ClientErrors())
                .execute(args);
        if (code != 0 || args.length == 0 || !"serve".equals(args[0])) {
            System.exit(code);
        }
    }
}
